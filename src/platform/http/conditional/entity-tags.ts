import { createHash } from 'node:crypto';

/**
 * Entity tags (RFC 9110 8.8.3) as this service reads and writes them. A versioned resource's tag is its
 * state (platform/versions/resource-state.ts: `"7"`, or `"7.<digest>"` where the representation carries
 * figures from other records), the same on a read and on the answer to a change. A resource without
 * versions (`/me`, an immutable snapshot) is tagged with a digest of the body served.
 */

/** The tag of an unversioned read: a digest of the exact body served. */
export function bodyTag(body: string | Buffer): string {
  return `"${createHash('sha1').update(body).digest('base64url').slice(0, 22)}"`;
}

/**
 * The tags of an If-Match or If-None-Match header: '*' for any, else each tag as written, quotes included
 * (`"7"`, `W/"7"`), so that the strong comparison of If-Match never matches a weak one. null when absent.
 */
export function parseTagList(header: string | string[] | undefined): '*' | string[] | null {
  if (header === undefined) return null;
  const text = Array.isArray(header) ? header.join(',') : header;
  if (text.trim() === '*') return '*';
  const tags: string[] = [];
  for (const match of text.matchAll(/(W\/)?"([^"]*)"/g)) tags.push(match[0]);
  return tags;
}

/** Strong comparison (RFC 9110 8.8.3.2): both tags strong and identical. */
export function strongMatch(candidate: string, tag: string): boolean {
  return !candidate.startsWith('W/') && candidate === tag;
}

/** If-None-Match (RFC 9110 13.1.2): weak comparison, so W/"x" matches "x". */
export function noneMatchHits(header: string | string[] | undefined, tag: string): boolean {
  const tags = parseTagList(header);
  if (tags === null) return false;
  if (tags === '*') return true;
  return tags.some((candidate) => candidate.replace(/^W\//, '') === tag);
}
