import ipaddr from 'ipaddr.js';

/** Only ordinary public unicast addresses may be the target of an outbound request. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) parsed = v6.toIPv4Address();
    // IPv4-compatible (::a.b.c.d, deprecated) carries an IPv4 address that ipaddr.js ranges as unicast.
    else if (v6.parts.slice(0, 6).every((part) => part === 0)) return false;
  }
  return parsed.range() === 'unicast';
}

/** A host written as an IP literal (brackets of IPv6 removed), or null for a name. */
export function literalAddress(hostname: string): string | null {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return ipaddr.isValid(bare) ? bare : null;
}

/** Why a URL may not be the target of an outbound request (http/https only, no credentials, no literal private address unless allowed), or null. */
export function outboundUrlProblem(value: string, { allowPrivate }: { allowPrivate: boolean }): string | null {
  if (!URL.canParse(value)) return 'must be an absolute http or https URL';
  const parsed = new URL(value);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'must be an http or https URL';
  if (parsed.username || parsed.password) return 'must not carry credentials';
  if (!allowPrivate) {
    // Names are checked after DNS at delivery time (rebinding); literals can be refused at once.
    const literal = literalAddress(parsed.hostname);
    if (literal !== null && !isPublicAddress(literal)) return 'must not point at a private, loopback, link-local or reserved address';
  }
  return null;
}
