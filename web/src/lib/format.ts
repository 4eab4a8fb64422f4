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

/** A size in bytes as a person reads it: "812 B", "1.4 MB" (decimal units, as file managers show them). */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  const units = ['kB', 'MB', 'GB', 'TB'];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

const AGO_UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

/** How long ago, as a person says it ("5 minutes ago", "yesterday"); under a minute is "just now". `now` for tests. */
export function formatAgo(iso: string, now: Date = new Date()): string {
  const seconds = Math.round((now.getTime() - new Date(iso).getTime()) / 1000);
  const format = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
  for (const [unit, size] of AGO_UNITS) if (Math.abs(seconds) >= size) return format.format(-Math.trunc(seconds / size), unit);
  return 'just now';
}
