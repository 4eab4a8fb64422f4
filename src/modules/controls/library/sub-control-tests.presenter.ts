import type { TestRecordRow } from './sub-control-tests.repository.js';

/** A test record on the wire: its result, how and when it was entered, and who entered it by name. */
export function presentTestRecord(row: TestRecordRow) {
  const { recorded_by_name, ...record } = row;
  return {
    ...record,
    recorded_by_user: row.recorded_by === null ? null : { id: row.recorded_by, full_name: recorded_by_name ?? '' },
  };
}
