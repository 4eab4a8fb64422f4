/**
 * An audit entry's `action_details` read as a person reads a change: the fields that moved (from → to), and
 * the rest of what the entry says. The service writes changes as `changes: { field: { from, to } }`; other
 * entries carry their own members (a transition's reason, an export's format), shown as they are.
 */
export interface FieldChange {
  field: string;
  from: string;
  to: string;
}

export interface ReadableDetails {
  operation: string | null;
  changes: FieldChange[];
  other: { key: string; value: string }[];
}

const isFromTo = (value: unknown): value is { from: unknown; to: unknown } =>
  typeof value === 'object' && value !== null && 'from' in value && 'to' in value;

export function shown(value: unknown): string {
  if (value === null || value === undefined || value === '') return '–';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

export function readableDetails(details: Record<string, unknown>): ReadableDetails {
  const { operation, changes, ...rest } = details;
  const fieldChanges: FieldChange[] =
    typeof changes === 'object' && changes !== null
      ? Object.entries(changes as Record<string, unknown>).filter(([, change]) => isFromTo(change)).map(([field, change]) => ({ field, from: shown((change as { from: unknown }).from), to: shown((change as { to: unknown }).to) }))
      : [];
  const other = Object.entries(fieldChanges.length === 0 && changes !== undefined ? { changes, ...rest } : rest).map(([key, value]) => ({ key, value: shown(value) }));
  return { operation: typeof operation === 'string' ? operation : null, changes: fieldChanges, other };
}
