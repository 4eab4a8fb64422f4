import { sql, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import { countRows } from '../../platform/db/page-queries.js';
import type { DB, Executor } from '../../platform/db/schema.js';
import { FORMULA_START_CODES } from '../../platform/export/csv-cell.js';

/**
 * SQL of the audit trail. Every enterprise's chain is numbered 1, 2, 3 … without gaps and in time order
 * (the writer never lets created_at go back), so "newest first" is chain_seq descending, a date range is a
 * chain_seq range, and the unfiltered total is the width of that range: exact at any depth.
 */
export interface AttributeFilters {
  action_type?: string | undefined;
  entity_type?: string | undefined;
  user_id?: string | undefined;
  /** Every entry about one record (a BRA, a control, an action, …). */
  entity_id?: string | undefined;
}

export interface ChainRange {
  /** First and last chain_seq in range; null when the range holds no entry. */
  from: number | null;
  to: number | null;
}

export const hasAttributeFilter = (filters: AttributeFilters) =>
  filters.action_type !== undefined ||
  filters.entity_type !== undefined ||
  filters.user_id !== undefined ||
  filters.entity_id !== undefined;

/**
 * The chain_seq range of the enterprise's entries created in [start, endExclusive). Each bound is two index
 * probes: the first (last) created_at in range, then the lowest (highest) chain_seq carrying it.
 */
export async function chainRange(
  db: Executor,
  enterpriseId: string,
  start: Date | null,
  endExclusive: Date | null,
): Promise<ChainRange> {
  const lower =
    start === null
      ? sql<number | null>`(select min(chain_seq) from audit_log where enterprise_id = ${enterpriseId})`
      : sql<number | null>`(select min(chain_seq) from audit_log where enterprise_id = ${enterpriseId}
          and created_at = (select min(created_at) from audit_log where enterprise_id = ${enterpriseId} and created_at >= ${start}))`;
  const upper =
    endExclusive === null
      ? sql<number | null>`(select max(chain_seq) from audit_log where enterprise_id = ${enterpriseId})`
      : sql<number | null>`(select max(chain_seq) from audit_log where enterprise_id = ${enterpriseId}
          and created_at = (select max(created_at) from audit_log where enterprise_id = ${enterpriseId} and created_at < ${endExclusive}))`;
  const { rows } = await sql<{ from: number | null; to: number | null }>`select ${lower} as "from", ${upper} as "to"`.execute(db);
  const row = rows[0]!;
  const from = row.from === null ? null : Number(row.from);
  const to = row.to === null ? null : Number(row.to);
  return from === null || to === null || to < from ? { from: null, to: null } : { from, to };
}

/** The enterprise's entries in the range that match the attribute filters (no order, no columns). */
function matching(db: Executor, enterpriseId: string, range: { from: number; to: number }, filters: AttributeFilters) {
  let query = db
    .selectFrom('audit_log')
    .where('enterprise_id', '=', enterpriseId)
    .where('chain_seq', '>=', range.from)
    .where('chain_seq', '<=', range.to);
  if (filters.action_type !== undefined) query = query.where('action_type', '=', filters.action_type);
  if (filters.entity_type !== undefined) query = query.where('entity_type', '=', filters.entity_type);
  if (filters.user_id !== undefined) query = query.where('user_id', '=', filters.user_id);
  if (filters.entity_id !== undefined) query = query.where('entity_id', '=', filters.entity_id);
  return query;
}

/** Counts matches, stopping at `cap` + 1: the count of a page request never reads more than that. */
export async function countMatchingUpTo(
  db: Executor,
  enterpriseId: string,
  range: { from: number; to: number },
  filters: AttributeFilters,
  cap: number,
): Promise<number> {
  const limited = matching(db, enterpriseId, range, filters).select(sql`1`.as('one')).limit(cap + 1);
  return countRows(db.selectFrom(limited.as('m')));
}

/** The planner's estimate of the matches (PostgreSQL's EXPLAIN): for totals beyond the exact cap. */
export async function estimateMatching(
  db: Executor,
  enterpriseId: string,
  range: { from: number; to: number },
  filters: AttributeFilters,
): Promise<number> {
  const plan = await matching(db, enterpriseId, range, filters).select(sql`1`.as('one')).explain<{ 'QUERY PLAN': unknown }>('json');
  const document = plan[0]?.['QUERY PLAN'];
  const parsed = (typeof document === 'string' ? JSON.parse(document) : document) as Array<{ Plan: { 'Plan Rows': number } }>;
  return Math.round(parsed[0]?.Plan['Plan Rows'] ?? 0);
}

/** Who did what to which record: the columns every rendering of an entry (JSON, CSV) keeps together, in this order. */
export const ACTOR_AND_TARGET = ['user_id', 'user_email', 'user_name', 'action_type', 'entity_type', 'entity_id'] as const;

/** An entry's members in the order of interface 2.9: the search's columns and the JSON export's members. */
export const ENTRY_COLUMNS = [
  'id',
  ...ACTOR_AND_TARGET,
  'action_details',
  'ip_address',
  'user_agent',
  'status',
  'created_at',
] as const;

export type AuditEntryRow = Awaited<ReturnType<typeof pageOfRange>>[number];

/** A page of the unfiltered range: chain_seq arithmetic, one index range scan at any depth. */
export async function pageOfRange(db: Executor, enterpriseId: string, from: number, to: number) {
  return db
    .selectFrom('audit_log')
    .select(ENTRY_COLUMNS)
    .where('enterprise_id', '=', enterpriseId)
    .where('chain_seq', '>=', from)
    .where('chain_seq', '<=', to)
    .orderBy('chain_seq', 'desc')
    .execute();
}

/**
 * A page of the filtered entries, newest first. The page's chain_seqs are found first on the filter's
 * (enterprise_id, attribute, chain_seq) index alone, and only those rows are read from the table.
 */
export async function pageOfMatching(
  db: Executor,
  enterpriseId: string,
  range: { from: number; to: number },
  filters: AttributeFilters,
  limit: number,
  offset: number,
) {
  const seqs = matching(db, enterpriseId, range, filters)
    .select('chain_seq')
    .orderBy('chain_seq', 'desc')
    .limit(limit)
    .offset(offset);
  return db
    .selectFrom('audit_log')
    .select(ENTRY_COLUMNS)
    .where('enterprise_id', '=', enterpriseId)
    .where('chain_seq', 'in', seqs)
    .orderBy('chain_seq', 'desc')
    .execute();
}

/** Every matching entry, newest first, as one query for a server-side cursor (the export). */
export function exportQuery(
  db: Executor,
  enterpriseId: string,
  range: { from: number; to: number },
  filters: AttributeFilters,
): SelectQueryBuilder<DB, 'audit_log', Record<string, unknown>> {
  return matching(db, enterpriseId, range, filters)
    .select(ENTRY_COLUMNS)
    .orderBy('chain_seq', 'desc') as unknown as SelectQueryBuilder<DB, 'audit_log', Record<string, unknown>>;
}

/**
 * Text a spreadsheet would read as a formula (csv-cell.ts's FORMULA_START_CODES) behind a ' (csv-cell.ts's
 * formulaSafe, in SQL), and an empty text as NULL: COPY's CSV writes NULL as an empty cell and quotes an empty
 * text (""), where the exports' CSV writes both as nothing. The first character is compared as a number
 * (`ascii`, 0 for an empty text): a third of the cost of comparing `left(…, 1)` as text, which goes through
 * the collation (bench/README.md, "Audit export by COPY").
 */
const FORMULA_CODES = sql.join(FORMULA_START_CODES.map((code) => sql.lit(code)));
const csvText = (column: 'user_email' | 'user_name' | 'entity_type' | 'ip_address' | 'user_agent'): RawBuilder<string | null> => {
  const value = sql.ref(column);
  return sql<string | null>`case when ascii(${value}) in (${FORMULA_CODES}) then '''' || ${value} else nullif(${value}, '') end`;
};

/**
 * The export's CSV columns (audit-export.ts CSV_COLUMNS, in that order) for COPY: each as its CSV cell's text
 * but for the quoting, which COPY's CSV does as csv-cell.ts does, and action_details left as jsonb (its cell
 * is rendered from the parsed value, platform/export/copy-csv.ts). Ids, action_type and status never start a
 * formula; created_at is the ISO text of the JavaScript Date pg would make of it.
 */
export function csvExportQuery(db: Executor, enterpriseId: string, range: { from: number; to: number }, filters: AttributeFilters) {
  return matching(db, enterpriseId, range, filters)
    .select([
      'id',
      sql<string>`to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`.as('created_at'),
      'user_id',
      csvText('user_email').as('user_email'),
      csvText('user_name').as('user_name'),
      'action_type',
      csvText('entity_type').as('entity_type'),
      'entity_id',
      'status',
      csvText('ip_address').as('ip_address'),
      csvText('user_agent').as('user_agent'),
      'action_details',
    ])
    .orderBy('chain_seq', 'desc');
}
