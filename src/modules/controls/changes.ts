/** A field's value before and after a change, as audit entries record it. */
export interface FieldChange {
  from: unknown;
  to: unknown;
}

/** The fields of `wanted` whose value differs from `current`. Pure. */
export function changedFields<T extends object>(current: T, wanted: Partial<T>): Record<string, FieldChange> {
  const changes: Record<string, FieldChange> = {};
  for (const [field, to] of Object.entries(wanted)) {
    const from = (current as Record<string, unknown>)[field];
    if (to !== undefined && from !== to) changes[field] = { from, to };
  }
  return changes;
}
