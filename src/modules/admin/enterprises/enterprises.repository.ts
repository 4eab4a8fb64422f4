import type { Transaction } from 'kysely';
import type { SubscriptionTier } from '../../../config.js';
import type { DB, Executor } from '../../../platform/db/schema.js';

type Status = 'active' | 'inactive';

export interface EnterpriseFilter {
  status: Status | undefined;
}

function filtered(db: Executor, filter: EnterpriseFilter) {
  let query = db.selectFrom('enterprises as e');
  if (filter.status !== undefined) query = query.where('e.status', '=', filter.status);
  return query;
}

export async function countEnterprises(db: Executor, filter: EnterpriseFilter): Promise<number> {
  const row = await filtered(db, filter)
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

/**
 * One page, newest first, with both counts computed by correlated subqueries in the same statement
 * (each an index lookup on enterprise_id): no query per enterprise.
 */
export async function listEnterprises(db: Executor, filter: EnterpriseFilter, limit: number, offset: number) {
  return filtered(db, filter)
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
        .where('b.status', '<>', 'cancelled')
        .as('bra_count'),
    ])
    .orderBy('e.created_at', 'desc')
    .orderBy('e.id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
}

export async function findEnterprise(db: Executor, enterpriseId: string) {
  return db
    .selectFrom('enterprises')
    .select(['id', 'status', 'subscription_tier'])
    .where('id', '=', enterpriseId)
    .executeTakeFirst();
}

/** Locks the row so that concurrent changes are audited one after another with true before-values. */
export async function findEnterpriseForUpdate(trx: Transaction<DB>, enterpriseId: string) {
  return trx
    .selectFrom('enterprises')
    .select(['id', 'status', 'subscription_tier'])
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
    .returning(['id', 'status', 'subscription_tier', 'updated_at'])
    .executeTakeFirstOrThrow();
}
