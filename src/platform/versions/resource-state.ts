import { createHash } from 'node:crypto';
import { AppError } from '../errors/app-error.js';

/**
 * The state of a resource as a client can name it (decisions.md, "One state, one tag"): its row version,
 * which the database bumps at every change, and, for a resource whose representation also carries figures
 * computed from other records (a BRA's appetite flags, its comments), a digest of that representation. Two
 * moments with the same state show the same representation; the platform writes a state as the resource's
 * ETag, on reads and on the answers to changes alike, so the tag a change answers is the tag the next read
 * answers until something changes.
 */
export interface ResourceState {
  readonly version: number;
  /** null where the representation is a function of the version alone. */
  readonly digest: string | null;
}

/** What a read or a change of a versioned resource returns: its data and the state it shows or left. */
export interface Versioned<T> {
  data: T;
  state: ResourceState;
}

/** The state of a resource whose representation follows from its row version alone. */
export function versionState(version: number): ResourceState {
  return { version, digest: null };
}

/**
 * The state of a resource whose representation carries figures from other records: the version and a digest
 * of the representation, computed by the same function for a read and after a change, so both agree.
 */
export function representationState(version: number, representation: unknown): ResourceState {
  return { version, digest: createHash('sha1').update(JSON.stringify(representation)).digest('base64url').slice(0, 22) };
}

export const versioned = <T>(data: T, state: ResourceState): Versioned<T> => ({ data, state });

/** The state written out, as ETags carry it (RFC 9110 8.8.3 opaque-tag, quotes included): `"7"` or `"7.<digest>"`. */
export function stateTag(state: ResourceState): string {
  return state.digest === null ? `"${state.version}"` : `"${state.version}.${state.digest}"`;
}

/**
 * What a change expects of the state of what it changes, checked by the service under the row lock, after
 * the tenant (404) and policy (403) checks: the platform builds one from a request's If-Match, a caller
 * outside HTTP (the demo) from a state it read. A refusal is PRECONDITION_FAILED (412, nothing changed) with
 * the current tag, or PRECONDITION_REQUIRED (428) when an expectation was required and none was given.
 */
export interface Expectation {
  /** Whether `check` needs the current state (a named tag); false for "any state" and for a missing one. */
  readonly needsState: boolean;
  check(current: ResourceState | null): void;
  /** For a change that creates what it changes (the appetite upsert): a named state cannot match (RFC 9110 13.1.1). */
  checkAbsent(): void;
}

/** The current state: given, or computed only when the expectation needs it (a BRA's costs a read of its answer). */
export type StateSource = ResourceState | (() => ResourceState | Promise<ResourceState>);

export async function requireExpected(expected: Expectation | null | undefined, current: StateSource): Promise<void> {
  if (expected === undefined || expected === null) return;
  if (!expected.needsState) return expected.check(null);
  expected.check(typeof current === 'function' ? await current() : current);
}

/** An expectation for callers outside HTTP: the state they read. */
export function expectState(read: ResourceState): Expectation {
  return {
    needsState: true,
    check(current) {
      if (current !== null && current.version === read.version && current.digest === read.digest) return;
      throw stateChanged(current);
    },
    checkAbsent() {
      throw stateChanged(null);
    },
  };
}

/** A change that creates what it changes: allowed unless the expectation names a state. */
export function requireAbsent(expected: Expectation | null | undefined): void {
  if (expected !== undefined && expected !== null) expected.checkAbsent();
}

/** 412: the resource is no longer in the state the change expects; details name its current tag. */
export function stateChanged(current: ResourceState | null): AppError {
  return new AppError('PRECONDITION_FAILED', 'The resource has changed since the version in If-Match; read it again', {
    current_etag: current === null ? null : stateTag(current),
  });
}
