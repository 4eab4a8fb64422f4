import { AppError } from '../errors.js';
import { versionOfTag, versionTag } from './entity-tags.js';

/**
 * The conditions of one request on a route that declares `etag` or `ifMatch` (route-config.ts): what
 * If-Match asked, whether it was required, and the version the service served or left, which the
 * platform turns into the answer's ETag. null on every other route.
 */
export interface RequestConditions {
  /** null: no If-Match; '*': any current version; else the tags sent. */
  ifMatch: '*' | string[] | null;
  /** REQUIRE_IF_MATCH: a change without If-Match is refused (428). */
  required: boolean;
  /** Set by the service: the resource's row version after the read or change. */
  version: number | null;
}

interface Conditioned {
  conditions?: RequestConditions | null;
}

/**
 * The If-Match check of a change, called by the service with the resource's current version read under its
 * row lock, inside the change's transaction: a concurrent change waits for the lock and then sees the new
 * version, so of two changes sent with the same tag one applies and the other gets 412. Called after the
 * tenant (404) and policy (403) checks, so a stranger learns nothing from a 412.
 */
export function requireCurrentVersion(caller: Conditioned, current: number): void {
  const conditions = caller.conditions;
  if (conditions === undefined || conditions === null) return;
  if (conditions.ifMatch === null) {
    if (conditions.required) {
      // No current tag in the details: a client must read the resource before it changes it.
      throw new AppError('PRECONDITION_REQUIRED', 'This change needs an If-Match header with the ETag you last read');
    }
    return;
  }
  if (conditions.ifMatch === '*') return;
  if (conditions.ifMatch.some((tag) => versionOfTag(tag) === current)) return;
  throw new AppError('PRECONDITION_FAILED', 'The resource has changed since the version in If-Match; read it again', {
    current_etag: versionTag(current),
  });
}

/**
 * For a change that may create what it changes (the appetite upsert): If-Match names an existing version, so
 * with none there is nothing it can match (RFC 9110 13.1.1), except that without If-Match creating is fine.
 */
export function requireAbsentForCreate(caller: Conditioned): void {
  const conditions = caller.conditions;
  if (conditions === undefined || conditions === null || conditions.ifMatch === null) return;
  throw new AppError('PRECONDITION_FAILED', 'If-Match names a version, and the resource does not exist yet', {
    current_etag: null,
  });
}

/** The version of the resource the answer shows (after a read or a change): the platform writes its ETag. */
export function servedVersion(caller: Conditioned, version: number): void {
  if (caller.conditions !== undefined && caller.conditions !== null) caller.conditions.version = version;
}
