import { isEmail } from 'class-validator';

const MAX_ADDRESS_LENGTH = 254;

/** In `u` mode a surrogate pair is one code point: this matches only an unpaired one. */
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * An address a mail server would take: the syntax of validator.js, with a top-level domain, at most 254
 * characters. JSON bodies cannot bring a lone surrogate this far (json-body.ts), but validator.js throws
 * on one (URIError), and other callers (a form post) need not have been through that stage.
 */
export function isDeliverableAddress(address: string): boolean {
  return address.length <= MAX_ADDRESS_LENGTH && !LONE_SURROGATE.test(address) && isEmail(address, { require_tld: true, allow_display_name: false, allow_ip_domain: false });
}
