import { createHash } from 'node:crypto';

/**
 * Entity tags (RFC 9110 8.8.3) as this service writes them. A versioned resource's tag starts with its
 * row version (the database bumps it at every change); a read adds, after a dot, a digest of the exact
 * body served, so two reads of one version whose figures computed from other resources differ (an appetite
 * changed, a sub-control was tested) never share a tag. If-Match compares the version part; If-None-Match
 * the whole tag.
 */

/** The tag of a version, as change answers and 412 details give it: `"7"`. */
export function versionTag(version: number): string {
  return `"${version}"`;
}

/** The tag of a read: `"7.<digest>"`, or `"<digest>"` for a resource without versions (an immutable snapshot). */
export function readTag(version: number | null, body: string | Buffer): string {
  const digest = createHash('sha1').update(body).digest('base64url').slice(0, 22);
  return version === null ? `"${digest}"` : `"${version}.${digest}"`;
}

/**
 * The tags of an If-Match or If-None-Match header: '*' for any, else the opaque tags without their quotes.
 * Weak tags (W/"...") are kept with their W/ so that the strong comparison of If-Match never matches them.
 * null when the header is absent.
 */
export function parseTagList(header: string | string[] | undefined): '*' | string[] | null {
  if (header === undefined) return null;
  const text = Array.isArray(header) ? header.join(',') : header;
  if (text.trim() === '*') return '*';
  const tags: string[] = [];
  for (const match of text.matchAll(/(W\/)?"([^"]*)"/g)) tags.push(`${match[1] ?? ''}${match[2]}`);
  return tags;
}

/** The version a strong tag names (`7` of `"7"` or `"7.digest"`); null for a weak or foreign tag. */
export function versionOfTag(tag: string): number | null {
  const match = /^(\d{1,15})(?:\.[A-Za-z0-9_-]*)?$/.exec(tag);
  return match === null ? null : Number(match[1]);
}

/** If-None-Match (RFC 9110 13.1.2): weak comparison, so W/"x" matches "x". */
export function noneMatchHits(header: string | string[] | undefined, tag: string): boolean {
  const tags = parseTagList(header);
  if (tags === null) return false;
  if (tags === '*') return true;
  const bare = tag.slice(1, -1);
  return tags.some((candidate) => candidate.replace(/^W\//, '') === bare);
}
