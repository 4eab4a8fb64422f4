import type { Executor } from '../../platform/db/schema.js';

export async function findEnterpriseName(db: Executor, enterpriseId: string): Promise<string | null> {
  const row = await db.selectFrom('enterprises').select('name').where('id', '=', enterpriseId).executeTakeFirst();
  return row?.name ?? null;
}

export async function listAssignments(db: Executor, enterpriseId: string, userId: string) {
  return db
    .selectFrom('entity_roles as r')
    .innerJoin('legal_entities as le', (join) =>
      join.onRef('le.id', '=', 'r.legal_entity_id').onRef('le.enterprise_id', '=', 'r.enterprise_id'),
    )
    .leftJoin('business_units as bu', 'bu.id', 'r.business_unit_id')
    .select(['r.legal_entity_id', 'r.business_unit_id', 'le.name', 'bu.name as business_unit_name'])
    .where('r.enterprise_id', '=', enterpriseId)
    .where('r.user_id', '=', userId)
    .orderBy('le.name')
    .execute();
}
