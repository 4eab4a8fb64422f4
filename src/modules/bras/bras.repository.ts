import { sql, type Expression, type SqlBool } from 'kysely';
import { newestFirst } from '../../platform/db/page-queries.js';
import type { Executor } from '../../platform/db/schema.js';
import type { BraStatus, BrasTable } from '../../platform/db/tables/bras.js';
import { BRA_MOVES } from './bras.lifecycle.js';

/** The BRA rows themselves (SQL only). Every query names the enterprise. */

export const BRA_COLUMNS = [
  'b.id',
  'b.enterprise_id',
  'b.name',
  'b.description',
  'b.legal_entity_id',
  'b.business_unit_id',
  'b.status',
  'b.period',
  'b.assessor',
  'b.start_date',
  'b.completion_date',
  'b.created_by',
  'b.created_at',
  'b.updated_at',
  'b.approved_by',
  'b.approved_at',
  'b.final_comment',
  'b.snapshot_id',
  'b.cancelled_by',
  'b.cancelled_at',
  'b.cancellation_reason',
  'b.rolled_from_bra_id',
] as const;

export async function findBra(db: Executor, enterpriseId: string, braId: string, lock = false) {
  let query = db
    .selectFrom('bras as b')
    .select(BRA_COLUMNS)
    .select('b.row_version')
    .where('b.enterprise_id', '=', enterpriseId)
    .where('b.id', '=', braId);
  // The row lock serialises every change of one BRA: state checks, approve against cancel, ratings.
  if (lock) query = query.forUpdate();
  return query.executeTakeFirst();
}
export type BraRow = NonNullable<Awaited<ReturnType<typeof findBra>>>;

/** A BRA with the names of its legal entity and business unit: one statement for one BRA or a page. */
function withNames(db: Executor, enterpriseId: string) {
  return db
    .selectFrom('bras as b')
    .innerJoin('legal_entities as le', (join) => join.onRef('le.enterprise_id', '=', 'b.enterprise_id').onRef('le.id', '=', 'b.legal_entity_id'))
    .leftJoin('business_units as bu', (join) => join.onRef('bu.enterprise_id', '=', 'b.enterprise_id').onRef('bu.id', '=', 'b.business_unit_id'))
    .select(BRA_COLUMNS)
    .select(['le.name as legal_entity_name', 'bu.name as business_unit_name'])
    .where('b.enterprise_id', '=', enterpriseId);
}

export async function findBraWithNames(db: Executor, enterpriseId: string, braId: string) {
  return withNames(db, enterpriseId).where('b.id', '=', braId).executeTakeFirst();
}
export type BraNamedRow = NonNullable<Awaited<ReturnType<typeof findBraWithNames>>>;

export interface BraFilter {
  status?: BraStatus | undefined;
  legal_entity_id?: string | undefined;
  business_unit_id?: string | undefined;
}

/**
 * The filters and the caller's scope (a SQL predicate from assignedScope) as one predicate, shared by the
 * count and the page so that totals and rows agree. Served by bras_list_idx / bras_status_idx /
 * bras_legal_entity_idx / bras_business_unit_idx (test/bras/bras-queries.test.ts checks the plans).
 */
function listPredicate(filter: BraFilter, scope: Expression<SqlBool>): Expression<SqlBool> {
  const parts: Expression<SqlBool>[] = [scope];
  if (filter.status !== undefined) parts.push(sql<SqlBool>`b.status = ${filter.status}`);
  if (filter.legal_entity_id !== undefined) parts.push(sql<SqlBool>`b.legal_entity_id = ${filter.legal_entity_id}`);
  if (filter.business_unit_id !== undefined) parts.push(sql<SqlBool>`b.business_unit_id = ${filter.business_unit_id}`);
  return sql<SqlBool>`(${sql.join(parts, sql` and `)})`;
}

/** Which BRAs a list reads: an enterprise's, under the filters and within the caller's scope. */
export interface BraListScope {
  enterpriseId: string;
  filter: BraFilter;
  /** The caller's readable BRAs, a predicate over `b` (bras.policy.ts braScopeFor). */
  scope: Expression<SqlBool>;
}

/** The count and page statements, unexecuted, so that their plans can be checked (test/bras/bras-queries.test.ts). */
export function braListQueries(db: Executor, { enterpriseId, filter, scope }: BraListScope, page: { limit: number; offset: number }) {
  const predicate = listPredicate(filter, scope);
  return {
    count: db
      .selectFrom('bras as b')
      .where('b.enterprise_id', '=', enterpriseId)
      .where(predicate)
      .select((eb) => eb.fn.countAll<number>().as('total')),
    page: newestFirst(withNames(db, enterpriseId).where(predicate), page.limit, page.offset, 'b'),
  };
}

export async function countBras(db: Executor, list: BraListScope): Promise<number> {
  const row = await braListQueries(db, list, { limit: 0, offset: 0 }).count.executeTakeFirstOrThrow();
  return Number(row.total);
}

export async function listBras(db: Executor, list: BraListScope, page: { limit: number; offset: number }): Promise<BraNamedRow[]> {
  return braListQueries(db, list, page).page.execute();
}

export interface NewBra {
  name: string;
  description: string | null;
  legal_entity_id: string;
  business_unit_id: string | null;
  period: string;
  assessor: string;
  start_date: string | null;
  created_by: string;
  /** A roll-forward's source BRA. */
  rolled_from_bra_id?: string | null;
}

export async function insertBra(db: Executor, enterpriseId: string, values: NewBra) {
  return db
    .insertInto('bras')
    .values({ enterprise_id: enterpriseId, ...values })
    .returning(['id'])
    .executeTakeFirstOrThrow();
}

/** The database's clock, so that every timestamp of one transaction agrees. */
const NOW = sql<Date>`now()`;
const TODAY_UTC = sql<string>`(now() at time zone 'UTC')::date`;

export type BraChanges = Partial<Pick<BrasTable, 'name' | 'description' | 'period' | 'assessor'> & { status: BraStatus }>;

/** One BRA of the enterprise, to update; each update bumps updated_at and returns the row as it now is. */
function updateOne(db: Executor, enterpriseId: string, braId: string) {
  return db.updateTable('bras as b').where('b.enterprise_id', '=', enterpriseId).where('b.id', '=', braId);
}

export async function updateBra(db: Executor, enterpriseId: string, braId: string, changes: BraChanges) {
  return updateOne(db, enterpriseId, braId)
    .set({ ...changes, updated_at: NOW })
    .returning(BRA_COLUMNS)
    .returning('b.row_version')
    .executeTakeFirstOrThrow();
}

/** Approval (4.2): approved now, completed today (UTC), by the caller, under the snapshot id it takes. */
export async function markApproved(
  db: Executor,
  enterpriseId: string,
  braId: string,
  approval: { approved_by: string; final_comment: string | null; snapshot_id: string },
) {
  return updateOne(db, enterpriseId, braId)
    .set({ ...approval, status: BRA_MOVES.approve.to, approved_at: NOW, completion_date: TODAY_UTC, updated_at: NOW })
    .returning(BRA_COLUMNS)
    .executeTakeFirstOrThrow();
}

/** Cancellation (3.1): cancelled now, by the caller. */
export async function markCancelled(
  db: Executor,
  enterpriseId: string,
  braId: string,
  cancellation: { cancelled_by: string; cancellation_reason: string | null },
) {
  return updateOne(db, enterpriseId, braId)
    .set({ ...cancellation, status: BRA_MOVES.cancel.to, cancelled_at: NOW, updated_at: NOW })
    .returning(BRA_COLUMNS)
    .executeTakeFirstOrThrow();
}
