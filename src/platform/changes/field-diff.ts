/**
 * What a change's input would change in a record: the fields whose wanted value differs from the current
 * one (`set`, written), with their values before (`previous`, audited). A field left undefined is not
 * asked for. Pure.
 */
export interface FieldDiff<T> {
  set: Partial<T>;
  previous: Partial<T>;
}

export function diffFields<T extends object>(current: T, wanted: Partial<T>): FieldDiff<T> {
  const set: Partial<T> = {};
  const previous: Partial<T> = {};
  for (const field of Object.keys(wanted) as (keyof T)[]) {
    const to = wanted[field];
    if (to === undefined || sameValue(current[field], to)) continue;
    set[field] = to;
    previous[field] = current[field];
  }
  return { set, previous };
}

export const isEmptyDiff = (diff: FieldDiff<object>): boolean => Object.keys(diff.set).length === 0;

/** The diff as `{ field: { from, to } }`, the shape the control library's and webhooks' entries record. */
export function fromTo<T extends object>(diff: FieldDiff<T>): Record<string, { from: unknown; to: unknown }> {
  const changes: Record<string, { from: unknown; to: unknown }> = {};
  for (const field of Object.keys(diff.set) as (keyof T & string)[]) changes[field] = { from: diff.previous[field], to: diff.set[field] };
  return changes;
}

/** Values as a client sees them: dates by instant, lists and objects by content. */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null) return JSON.stringify(a) === JSON.stringify(b);
  return false;
}
