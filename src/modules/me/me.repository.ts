import type { Executor } from '../../platform/db/schema.js';
import { preparedQuery } from '../../platform/db/prepared.js';

// On every /me: compiled once (src/platform/db/prepared.ts).
const enterpriseName = preparedQuery((db, enterpriseId: string) =>
  db.selectFrom('enterprises').select('name').where('id', '=', enterpriseId),
);

const assignments = preparedQuery((db, enterpriseId: string, userId: string) =>
  db
    .selectFrom('entity_roles as r')
    .innerJoin('legal_entities as le', (join) =>
      join.onRef('le.id', '=', 'r.legal_entity_id').onRef('le.enterprise_id', '=', 'r.enterprise_id'),
    )
    .leftJoin('business_units as bu', 'bu.id', 'r.business_unit_id')
    .select(['r.legal_entity_id', 'r.business_unit_id', 'le.name', 'bu.name as business_unit_name'])
    .where('r.enterprise_id', '=', enterpriseId)
    .where('r.user_id', '=', userId)
    .orderBy('le.name'),
);

export async function findEnterpriseName(db: Executor, enterpriseId: string): Promise<string | null> {
  const [row] = await enterpriseName(db, enterpriseId);
  return row?.name ?? null;
}

export async function listAssignments(db: Executor, enterpriseId: string, userId: string) {
  return assignments(db, enterpriseId, userId);
}

/** A service account's assignments (the identity module's table, read in this module's own statement). */
const serviceAccountAssignments = preparedQuery((db, enterpriseId: string, accountId: string) =>
  db
    .selectFrom('service_account_entities as r')
    .innerJoin('legal_entities as le', (join) =>
      join.onRef('le.id', '=', 'r.legal_entity_id').onRef('le.enterprise_id', '=', 'r.enterprise_id'),
    )
    .leftJoin('business_units as bu', 'bu.id', 'r.business_unit_id')
    .select(['r.legal_entity_id', 'r.business_unit_id', 'le.name', 'bu.name as business_unit_name'])
    .where('r.enterprise_id', '=', enterpriseId)
    .where('r.service_account_id', '=', accountId)
    .orderBy('le.name'),
);

export async function listServiceAccountAssignments(db: Executor, enterpriseId: string, accountId: string) {
  return serviceAccountAssignments(db, enterpriseId, accountId);
}
