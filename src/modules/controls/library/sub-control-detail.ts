import type { Static } from 'typebox';
import type { Executor } from '../../../platform/db/schema.js';
import { representationState, type ResourceState } from '../../../platform/versions/resource-state.js';
import type { SubControlDetailView } from '../controls.schemas.js';
import { presentTestRecord } from './sub-control-tests.presenter.js';
import { countTestRecords, listTestRecords } from './sub-control-tests.repository.js';
import type { VersionedSubControlRow } from './sub-controls.repository.js';

type SubControlDetail = Static<typeof SubControlDetailView>;

/** One sub-control with its test count, its latest test and the result before it (its history's first two entries). */
export async function loadSubControlDetail(db: Executor, enterpriseId: string, row: VersionedSubControlRow): Promise<SubControlDetail> {
  const [[latest, previous], testsCount] = await Promise.all([
    listTestRecords(db, enterpriseId, row.id, 2, 0),
    countTestRecords(db, enterpriseId, row.id),
  ]);
  const { row_version: _version, ...current } = row;
  return {
    ...current,
    tests_count: testsCount,
    latest_test: latest === undefined ? null : presentTestRecord(latest),
    previous_result: previous === undefined ? null : presentTestRecord(previous),
  };
}

/**
 * The sub-control's state as its detail shows it: the detail names its testers, whose names can change
 * without the sub-control's version moving, so the state carries a digest of the detail (resource-state.ts).
 */
export async function subControlState(db: Executor, enterpriseId: string, row: VersionedSubControlRow): Promise<ResourceState> {
  return representationState(row.row_version, await loadSubControlDetail(db, enterpriseId, row));
}
