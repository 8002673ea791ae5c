import { lookup } from 'node:dns/promises';
import { ViolationDetail } from '../../../core/src/errors';
import { isPublicAddress, literalAddress, outboundUrlProblem } from '../../../core/src/outbound-address';

/** One answer for a private target, whether it is written as an address or as a name that resolves to one. */
export const PRIVATE_TARGET_PROBLEM = 'must not point at a private, loopback, link-local or reserved address (the operator may allow such targets with VIGIL_OUTBOUND_ALLOW_PRIVATE=true)';

const LOOKUP_DEADLINE_MS = 2000;

/** Why a URL may not be a delivery target as written (scheme, credentials, a private literal), or null. */
export function targetUrlProblem(value: string, options: { allowPrivate: boolean }): string | null {
  const problem = outboundUrlProblem(value, options);
  if (problem === null || options.allowPrivate) return problem;
  // The scheme and credentials pass when the same URL is checked as if private targets were allowed.
  return outboundUrlProblem(value, { allowPrivate: true }) === null ? PRIVATE_TARGET_PROBLEM : problem;
}

/**
 * Whether a host name resolves to a private address now. Names that do not resolve (or not in time) pass:
 * delivery checks every address again after DNS, so a name that changes later is refused there.
 */
async function resolvesPrivate(hostname: string): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), LOOKUP_DEADLINE_MS)));
  try {
    const addresses = await Promise.race([lookup(hostname, { all: true, verbatim: true }).catch(() => null), deadline]);
    return addresses !== null && addresses.some((a) => !isPublicAddress(a.address));
  } finally {
    clearTimeout(timer);
  }
}

/** The save-time DNS check of a channel's URL (`config.url`), as a validation detail, or none. */
export async function resolvedTargetProblems(config: unknown, options: { allowPrivate: boolean }): Promise<ViolationDetail[]> {
  if (options.allowPrivate || typeof config !== 'object' || config === null) return [];
  const url = (config as { url?: unknown }).url;
  if (typeof url !== 'string') return [];
  let hostname: string;
  try {
    hostname = new URL(url).hostname;
  } catch {
    return [];
  }
  if (literalAddress(hostname) !== null) return [];
  return (await resolvesPrivate(hostname)) ? [{ path: 'config.url', message: PRIVATE_TARGET_PROBLEM }] : [];
}
