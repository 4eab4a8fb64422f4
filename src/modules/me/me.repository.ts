import { sql } from 'kysely';
import type { Executor } from '../../platform/db/schema.js';
import { preparedQuery } from '../../platform/db/prepared.js';

// On every /me: compiled once (src/platform/db/prepared.ts).
const enterpriseName = preparedQuery((db, enterpriseId: string) =>
  db.selectFrom('enterprises').select('name').where('id', '=', enterpriseId),
);

/**
 * A caller's entity assignments, named, by entity name: a member's (entity_roles, by user) or a service
 * account's (service_account_entities, the identity module's table, read in this module's own statement).
 */
function namedAssignments(table: 'entity_roles' | 'service_account_entities', owner: 'user_id' | 'service_account_id') {
  // Both tables have the assignment columns read here; the statement is typed by the first.
  const assignments = `${table} as r` as 'entity_roles as r';
  return preparedQuery((db, enterpriseId: string, ownerId: string) =>
    db
      .selectFrom(assignments)
      .innerJoin('legal_entities as le', (join) =>
        join.onRef('le.id', '=', 'r.legal_entity_id').onRef('le.enterprise_id', '=', 'r.enterprise_id'),
      )
      .leftJoin('business_units as bu', 'bu.id', 'r.business_unit_id')
      .select(['r.legal_entity_id', 'r.business_unit_id', 'le.name', 'bu.name as business_unit_name'])
      .where('r.enterprise_id', '=', enterpriseId)
      .where(sql.ref(`r.${owner}`), '=', ownerId)
      .orderBy('le.name'),
  );
}

const memberAssignments = namedAssignments('entity_roles', 'user_id');
const serviceAccountAssignments = namedAssignments('service_account_entities', 'service_account_id');

export async function findEnterpriseName(db: Executor, enterpriseId: string): Promise<string | null> {
  const [row] = await enterpriseName(db, enterpriseId);
  return row?.name ?? null;
}

export async function listAssignments(db: Executor, enterpriseId: string, userId: string) {
  return memberAssignments(db, enterpriseId, userId);
}

export async function listServiceAccountAssignments(db: Executor, enterpriseId: string, accountId: string) {
  return serviceAccountAssignments(db, enterpriseId, accountId);
}
