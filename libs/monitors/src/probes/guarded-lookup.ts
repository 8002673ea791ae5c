import { lookup as dnsLookup, LookupAddress } from 'node:dns';
import { LookupFunction } from 'node:net';
import { isPublicAddress, literalAddress } from '../../../core/src/outbound-address';

export const PRIVATE_CODE = 'EVIGILPRIVATE';
export const PRIVATE_MESSAGE = 'target resolves to a private, loopback, link-local or reserved address';

type ListCallback = (e: Error | null, a: LookupAddress[]) => void;

/** A socket lookup that refuses every resolved address that is not public unicast, so DNS rebinding cannot reach inside. */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return (callback as ListCallback)(error, []);
      const list = addresses as LookupAddress[];
      if (list.length === 0 || (!allowPrivate && list.some((a) => !isPublicAddress(a.address)))) {
        return (callback as ListCallback)(Object.assign(new Error(PRIVATE_MESSAGE), { code: PRIVATE_CODE }), []);
      }
      if ((options as { all?: boolean }).all) return (callback as ListCallback)(null, list);
      (callback as (e: Error | null, a: string, f: number) => void)(null, list[0].address, list[0].family);
    });
  };
}

/** A host's first address under the same rule, for clients that take an address rather than a lookup. */
export function resolveGuarded(hostname: string, allowPrivate: boolean): Promise<string> {
  const literal = literalAddress(hostname);
  if (literal !== null) {
    if (!allowPrivate && !isPublicAddress(literal)) return Promise.reject(Object.assign(new Error(PRIVATE_MESSAGE), { code: PRIVATE_CODE }));
    return Promise.resolve(literal);
  }
  return new Promise((resolve, reject) => {
    guardedLookup(allowPrivate)(hostname, {}, (error: NodeJS.ErrnoException | null, address: string | LookupAddress[]) => {
      if (error) reject(error);
      else resolve(typeof address === 'string' ? address : address[0].address);
    });
  });
}
