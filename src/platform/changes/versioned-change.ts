import type { Transaction } from 'kysely';
import type { Caller } from '../auth/principal.js';
import { recordChange, type ChangeRecord } from '../audit/record-change.js';
import type { DB } from '../db/schema.js';
import { invalidState, notFound } from '../errors/app-error.js';
import type { ChangeTerms } from '../versions/change-terms.js';
import { requireExpected, versionState, type ResourceState } from '../versions/resource-state.js';

/**
 * The change of a versioned record, written once (decisions.md D10.1 for the order of the answers): the
 * record under its row lock, 404 when it is not the caller's enterprise's; the policy on the record found
 * (403); the state the client expects (If-Match: 412, or 428 when required), compared under the lock so that
 * of two changes sent with one tag the second sees the first's version; then the state refusals of the
 * change itself (409); then the change and its audit entry in the same transaction.
 */

export interface VersionedRecord {
  row_version: number;
}

export interface RecordLookup<Row extends VersionedRecord> {
  /** The record under its row lock (SELECT … FOR UPDATE), or undefined when the caller's enterprise has none. */
  lock: () => Promise<Row | undefined>;
  /** How a 404 names it: "Legal entity not found". */
  noun: string;
  /** The policy on the record found (403), before its state is compared. */
  authorize?: (row: Row) => void;
  /** The state a client names when the representation carries more than the row (default: the version alone). */
  stateOf?: (row: Row) => ResourceState | Promise<ResourceState>;
}

/** lock → 404 → policy → If-Match: the record a change may go on with. */
export async function lockForChange<Row extends VersionedRecord>(lookup: RecordLookup<Row>, terms: ChangeTerms): Promise<Row> {
  const row = await lookup.lock();
  if (row === undefined) throw notFound(lookup.noun);
  lookup.authorize?.(row);
  const stateOf = lookup.stateOf;
  await requireExpected(terms.expected, stateOf === undefined ? versionState(row.row_version) : () => stateOf(row));
  return row;
}

/** What a changed record's audit entry says; the action is the template's (`update`, or `delete` for an archive). */
export type ChangeEntry = Omit<ChangeRecord, 'action'>;

export interface VersionedUpdate<Row extends VersionedRecord, Diff> extends RecordLookup<Row> {
  /** Refusals of the change on this record's state (an archived record: 409), after If-Match. */
  refuse?: (row: Row) => void | Promise<void>;
  /** What the input changes in the record; null when nothing: nothing is written, nothing audited. */
  diff: (row: Row) => Diff | null;
  write: (row: Row, diff: Diff) => Promise<Row>;
  audit: (before: Row, after: Row, diff: Diff) => ChangeEntry;
  /** More of the same change, in its transaction: a history row, an event for webhooks. */
  after?: (before: Row, after: Row, diff: Diff) => Promise<void>;
}

export interface ChangeOutcome<Row> {
  row: Row;
  /** false when the input changed nothing (or the record was archived already): no entry was written. */
  changed: boolean;
}

export async function updateVersioned<Row extends VersionedRecord, Diff>(
  trx: Transaction<DB>,
  caller: Caller,
  terms: ChangeTerms,
  update: VersionedUpdate<Row, Diff>,
): Promise<ChangeOutcome<Row>> {
  const before = await lockForChange(update, terms);
  await update.refuse?.(before);
  const diff = update.diff(before);
  if (diff === null) return { row: before, changed: false };
  const after = await update.write(before, diff);
  await recordChange(trx, caller, { action: 'update', ...update.audit(before, after, diff) });
  await update.after?.(before, after, diff);
  return { row: after, changed: true };
}

export interface VersionedArchive<Row extends VersionedRecord> extends RecordLookup<Row> {
  isArchived: (row: Row) => boolean;
  /**
   * Archiving what is archived already: `unchanged` answers the record as it is and writes nothing (an
   * idempotent archive); a message refuses it (409).
   */
  again: 'unchanged' | { refuse: string };
  /** Refusals besides (what is archived is still in use: 409). */
  refuse?: (row: Row) => void | Promise<void>;
  archive: (row: Row) => Promise<Row>;
  /** The record's entry; several when what is archived takes other records with it (a key control's sub-controls). */
  audit: (before: Row, after: Row) => ChangeEntry | readonly ChangeEntry[];
  after?: (before: Row, after: Row) => Promise<void>;
}

/** Archiving, of whatever record: always audited as `delete` (interface 2.9: "delete covers archiving"). */
export async function archiveVersioned<Row extends VersionedRecord>(
  trx: Transaction<DB>,
  caller: Caller,
  terms: ChangeTerms,
  archive: VersionedArchive<Row>,
): Promise<ChangeOutcome<Row>> {
  const before = await lockForChange(archive, terms);
  if (archive.isArchived(before)) {
    if (archive.again === 'unchanged') return { row: before, changed: false };
    throw invalidState(archive.again.refuse);
  }
  await archive.refuse?.(before);
  const after = await archive.archive(before);
  const entries = archive.audit(before, after);
  for (const entry of Array.isArray(entries) ? entries : [entries]) await recordChange(trx, caller, { action: 'delete', ...(entry as ChangeEntry) });
  await archive.after?.(before, after);
  return { row: after, changed: true };
}
