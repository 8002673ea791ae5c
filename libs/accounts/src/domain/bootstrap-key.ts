/** Fewest characters, and fewest distinct ones, of a bootstrap key: an ADMIN key must not be guessable. */
const BOOTSTRAP_KEY_MIN_LENGTH = 24;
const MIN_DISTINCT = 16;
/** Placeholders people copy from examples. */
const PLACEHOLDERS = /change-?me|secret|password|example|your-?key/i;

/** Why the key is refused, or null when it is strong enough. The key itself is never in the message. */
export function weakBootstrapKey(key: string): string | null {
  if (key.length >= BOOTSTRAP_KEY_MIN_LENGTH && new Set(key).size >= MIN_DISTINCT && !PLACEHOLDERS.test(key)) return null;
  return `VIGIL_BOOTSTRAP_API_KEY is too weak or a placeholder: use at least ${BOOTSTRAP_KEY_MIN_LENGTH} random characters, for example the output of \`openssl rand -base64 32\``;
}
