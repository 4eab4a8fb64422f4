/** Dates and times as the reader's browser writes them; the wire stays ISO 8601 UTC. */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '–';
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

export function formatDate(date: string | null | undefined): string {
  return date ?? '–';
}

/** A timestamp's day only, where the time of day adds nothing (an invitation link's expiry). */
export function formatDay(iso: string | null | undefined): string {
  if (!iso) return '–';
  return new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium' });
}
