import type { LightMyRequestResponse } from 'fastify';
import type { TestContext } from './app.js';
import { createBraWorld } from './bras-factories.js';
import { bearer, tokenFor, type TestUser } from './factories.js';

/**
 * The suites' one cast: an enterprise as the service creates it (with its default appetite), its entities
 * and units, and the usual people with their sessions; and the one `call` of the API every suite uses.
 * A suite that needs other people builds them with the factories and still calls through `calls(ctx)`.
 */

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS';

/** Who calls: a person (one session of theirs for the whole file) or a bearer token a suite holds. */
export type Caller = TestUser | string;

/**
 * `call(who, method, url, payload?, headers?)`: a call of the API under /api/v1, as `who`. `headers` add to
 * (or replace) the bearer header: If-Match, Idempotency-Key, Accept.
 */
export type Call = (
  who: Caller,
  method: Method,
  url: string,
  payload?: unknown,
  headers?: Record<string, string>,
) => Promise<LightMyRequestResponse>;

export interface Calls {
  call: Call;
  /** The token of `user`'s session of the file (the one `call` uses), created on first use. */
  tokenOf(user: TestUser): Promise<string>;
}

/** One session per person per app: signing in is not what the suites test. */
const sessionsOf = new WeakMap<TestContext, Map<string, Promise<string>>>();

export function calls(ctx: TestContext): Calls {
  let sessions = sessionsOf.get(ctx);
  if (!sessions) sessionsOf.set(ctx, (sessions = new Map()));
  const known = sessions;
  const tokenOf = (user: TestUser) => {
    if (!known.has(user.id)) known.set(user.id, tokenFor(ctx, user));
    return known.get(user.id)!;
  };
  const call: Call = async (who, method, url, payload, headers = {}) =>
    ctx.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: { ...bearer(typeof who === 'string' ? who : await tokenOf(who)), ...headers },
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
  return { call, tokenOf };
}

/**
 * The cast: `enterprise` with `entity` (units `unit` and `otherUnit`) and `elsewhere`; its client `admin`,
 * an `assessor` and a `reviewer` assigned to `entity`, a `unitAssessor` assigned to `unit` only, an
 * `outsideAssessor` and an `outsideReviewer` assigned to `elsewhere`; a `superAdmin`; and `other`, another
 * enterprise with its `otherAdmin` and `otherEntity` (for tenant isolation). Plus `call` and `tokenOf`.
 */
export async function cast(ctx: TestContext) {
  return { ...(await createBraWorld(ctx)), ...calls(ctx) };
}
export type Cast = Awaited<ReturnType<typeof cast>>;
