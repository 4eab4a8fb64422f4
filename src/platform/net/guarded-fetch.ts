import { isIP } from 'node:net';
import { Agent, fetch as undiciFetch } from 'undici';
import { hostOf, refusedAddress } from './address-safety.js';
import { guardedLookup, RefusedAddress, type Resolve } from './guarded-lookup.js';

export interface GuardedFetchOptions {
  /** Loopback hosts allowed (development and tests: an identity provider on 127.0.0.1). */
  allowLoopback: boolean;
  resolve?: Resolve;
}

/** What a guarded request may carry (its dispatcher and redirect handling are the guard's own). */
export interface GuardedRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string | URLSearchParams | Uint8Array | ArrayBuffer | null;
  signal?: AbortSignal;
}

export type GuardedFetch = (input: string | URL, init?: GuardedRequest) => Promise<Response>;

/**
 * A `fetch` for URLs a tenant gives the service (an identity provider's issuer, its keys and token endpoint):
 * every connection's addresses pass address-safety.ts at connect time (guardedLookup), a literal address
 * before anything is sent, and redirects are not followed (a 3xx is answered as it is), so a tenant cannot
 * make the service reach its own network or the cloud's metadata endpoint (SSRF).
 */
export function createGuardedFetch({ allowLoopback, resolve }: GuardedFetchOptions): GuardedFetch {
  const dispatcher = new Agent({ connect: { lookup: guardedLookup(allowLoopback, resolve) } });
  return async (input, init) => {
    const url = new URL(input);
    const host = hostOf(url);
    if (isIP(host) !== 0) {
      const refused = refusedAddress(host, allowLoopback);
      if (refused !== null) throw new RefusedAddress(`refused at connect: ${refused}`);
    }
    // undici's own fetch, so that the dispatcher is the one it was built for (the global fetch may be another
    // copy of undici); its Response is the standard one in shape.
    const response = await undiciFetch(url, { ...init, redirect: 'manual', dispatcher });
    return response as unknown as Response;
  };
}
