import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupFunction } from 'node:net';
import { refusedAddress } from './address-safety.js';

/** Resolves a host name to its addresses (the system resolver; the suites inject one). */
export type Resolve = (hostname: string) => Promise<{ address: string; family: number }[]>;

export const systemResolve: Resolve = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/** A connection refused because its host resolves inside (address-safety.ts); its message says which address. */
export class RefusedAddress extends Error {
  override readonly name = 'RefusedAddress';
}

/**
 * The socket's DNS lookup for a request the service makes on a tenant's behalf (a webhook, an identity
 * provider's discovery): it refuses a name if any address it resolves to is private, link-local or loopback
 * (loopback only with `allowLoopback`), at connect time, so a name that pointed outside when it was
 * registered and points inside now (DNS rebinding) is still refused. Literal addresses never reach a lookup:
 * their callers check them with refusedAddress first.
 */
export function guardedLookup(allowLoopback: boolean, resolve: Resolve = systemResolve): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (addresses) => {
        const refused = addresses.map((a) => refusedAddress(a.address, allowLoopback)).find((why) => why !== null);
        if (refused !== undefined) return callback(new RefusedAddress(`refused at connect: ${hostname} resolves to ${refused}`), '', 0);
        if (addresses.length === 0) return callback(new Error(`${hostname} has no address`), '', 0);
        if (options.all === true) return (callback as unknown as (e: null, a: typeof addresses) => void)(null, addresses);
        return callback(null, addresses[0]!.address, addresses[0]!.family);
      },
      (error: unknown) => callback(error as NodeJS.ErrnoException, '', 0),
    );
  };
}
