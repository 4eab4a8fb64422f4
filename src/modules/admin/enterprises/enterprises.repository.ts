import type { Kysely, Transaction } from 'kysely';
import { newestFirst } from '../../../platform/db/page-queries.js';
import { preparedQuery } from '../../../platform/db/prepared.js';
import type { SubscriptionTier } from '../../../config.js';
import type { DB, Executor } from '../../../platform/db/schema.js';
import { braStatusSql, NOT_CANCELLED } from '../../bras/bras.lifecycle.js';

type Status = 'active' | 'inactive';

export interface EnterpriseFilter {
  status: Status | undefined;
}

function filtered(db: Kysely<DB>, status: Status | null) {
  let query = db.selectFrom('enterprises as e');
  if (status !== null) query = query.where('e.status', '=', status);
  return query;
}

/**
 * The list's two statements, compiled once per shape (all enterprises, or those of one status: the
 * status argument is there or not): the list is the super admin's landing page (src/platform/db/prepared.ts).
 */
function statements() {
  return {
    count: preparedQuery((db, ...values: [] | [Status]) =>
      filtered(db, values[0] ?? null).select((eb) => eb.fn.countAll<number>().as('total')),
    ),
    /**
     * One page, newest first, with both counts computed by correlated subqueries in the same statement
     * (each an index lookup on enterprise_id): no query per enterprise.
     */
    page: preparedQuery((db, limit: number, offset: number, ...values: [] | [Status]) => {
      const page = filtered(db, values[0] ?? null)
        .selectAll('e')
        .select((eb) => [
          eb
            .selectFrom('enterprise_members as m')
            .innerJoin('users as u', 'u.id', 'm.user_id')
            .select((sub) => sub.fn.countAll<number>().as('n'))
            .whereRef('m.enterprise_id', '=', 'e.id')
            .where('m.active', '=', true)
            .where('u.active', '=', true)
            .as('user_count'),
          eb
            .selectFrom('bras as b')
            .select((sub) => sub.fn.countAll<number>().as('n'))
            .whereRef('b.enterprise_id', '=', 'e.id')
            .where(braStatusSql(NOT_CANCELLED, 'b'))
            .as('bra_count'),
        ]);
      return newestFirst(page, limit, offset, 'e');
    }),
  };
}

const ALL = statements();
const BY_STATUS = statements();

export async function countEnterprises(db: Executor, filter: EnterpriseFilter): Promise<number> {
  const [row] = filter.status === undefined ? await ALL.count(db) : await BY_STATUS.count(db, filter.status);
  return Number(row!.total);
}

export async function listEnterprises(db: Executor, filter: EnterpriseFilter, limit: number, offset: number) {
  return filter.status === undefined
    ? ALL.page(db, limit, offset)
    : BY_STATUS.page(db, limit, offset, filter.status);
}

export async function findEnterprise(db: Executor, enterpriseId: string) {
  return db
    .selectFrom('enterprises')
    .select(['id', 'name', 'status', 'subscription_tier'])
    .where('id', '=', enterpriseId)
    .executeTakeFirst();
}

/** Locks the row so that concurrent changes are audited one after another with true before-values. */
export async function findEnterpriseForUpdate(trx: Transaction<DB>, enterpriseId: string) {
  return trx
    .selectFrom('enterprises')
    .select(['id', 'status', 'subscription_tier', 'row_version'])
    .where('id', '=', enterpriseId)
    .forUpdate()
    .executeTakeFirst();
}

export async function insertEnterprise(
  trx: Transaction<DB>,
  values: { name: string; country: string; registration_number: string | null },
) {
  return trx
    .insertInto('enterprises')
    .values(values)
    .returning(['id', 'name', 'country', 'registration_number', 'status', 'subscription_tier', 'created_at'])
    .executeTakeFirstOrThrow();
}

export async function updateEnterprise(
  trx: Transaction<DB>,
  enterpriseId: string,
  changes: { status?: Status | undefined; subscription_tier?: SubscriptionTier | undefined },
) {
  return trx
    .updateTable('enterprises')
    .set({ ...changes, updated_at: new Date() })
    .where('id', '=', enterpriseId)
    .returning(['id', 'status', 'subscription_tier', 'updated_at', 'row_version'])
    .executeTakeFirstOrThrow();
}
