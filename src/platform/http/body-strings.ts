/**
 * The path of the first string of a parsed JSON body, a value or a member name, that `refused` refuses, or
 * null: `(body)` for the body itself, `items[2].name` within it. The body guards (NUL, unpaired surrogates)
 * share this walk and differ only in the test. A refused member name is in the path it returns, so `shown`
 * makes that path printable (the character refused is what a message cannot carry).
 */
export function refusedStringField(
  value: unknown,
  refused: (text: string) => boolean,
  shown: (path: string) => string,
  path = '',
): string | null {
  if (typeof value === 'string') return refused(value) ? path || '(body)' : null;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = refusedStringField(item, refused, shown, `${path}[${index}]`);
      if (found !== null) return found;
    }
    return null;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, member] of Object.entries(value)) {
      const field = path === '' ? key : `${path}.${key}`;
      if (refused(key)) return shown(field);
      const found = refusedStringField(member, refused, shown, field);
      if (found !== null) return found;
    }
  }
  return null;
}
