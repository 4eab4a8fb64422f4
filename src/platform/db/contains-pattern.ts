/**
 * The LIKE/ILIKE pattern "contains this text": the text's own `%`, `_` and `\` are escaped (backslash is
 * LIKE's default escape), so a search for "10%_off" finds that text and not any text with "10" in it.
 */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}
