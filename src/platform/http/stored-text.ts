/**
 * What a string of a request becomes when it is stored, and how its length is counted: the one rule behind
 * D2.3's bounds. A string is trimmed first (the JSON body parser does it for every /api/v1 body before the
 * schema is checked; a protocol that reads its own bodies, SCIM, calls `storedText` itself), and its length
 * is counted in Unicode code points, as the schema validator (Ajv) and PostgreSQL's `char_length` count it,
 * never in UTF-16 units. So a name of 200 characters padded with spaces is a name of 200 characters, and an
 * emoji is one character wherever it is counted.
 */
export function storedText(value: string): string {
  return value.trim();
}

/** The length of a stored string, in code points. */
export function storedLength(text: string): number {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}

/** The stored form of `value` when it is a string of 1 to `max` characters once stored, else null. */
export function boundedText(value: unknown, max: number): string | null {
  if (typeof value !== 'string') return null;
  const text = storedText(value);
  return text !== '' && storedLength(text) <= max ? text : null;
}
