import { sql, type Kysely } from 'kysely';
import { afterAll, describe } from 'vitest';
import { freshDatabase } from '../../../test/support/database.js';
import { ENTITY_A, ENTITY_B, UNIT_A1, UNIT_A2, overEveryRole, overRoles } from '../../../test/support/principals.js';
import { canManageLegalEntities, legalEntityListScope } from './legal-entities.policy.js';

describe('legal-entities.policy (D5)', async () => {
  overRoles('POST /admin/legal-entities and .../business-units: client admins (a super admin has no enterprise to create it in)', { admin: true }, (who) => canManageLegalEntities(who));

  const database = await freshDatabase();
  afterAll(() => database.close());
  type Tables = {
    le: { id: string; name: string };
    bu: { id: string; legal_entity_id: string; name: string };
  };
  const db = database.db as unknown as Kysely<Tables>;
  await sql`create table le (id uuid primary key, name text)`.execute(db);
  await sql`create table bu (id uuid primary key, legal_entity_id uuid, name text)`.execute(db);
  await db.insertInto('le').values([{ id: ENTITY_A, name: 'A' }, { id: ENTITY_B, name: 'B' }]).execute();
  await db.insertInto('bu').values([{ id: UNIT_A1, legal_entity_id: ENTITY_A, name: 'A1' }, { id: UNIT_A2, legal_entity_id: ENTITY_A, name: 'A2' }]).execute();

  /** The entities and units the list shows, as the repository applies the two predicates. */
  const listed = async (who: Parameters<typeof legalEntityListScope>[0]) => {
    const scope = legalEntityListScope(who);
    const entities = await db.selectFrom('le').select('le.name').where(scope.entity).orderBy('le.name').execute();
    const units = await db.selectFrom('bu').select('bu.name').where(scope.unit).orderBy('bu.name').execute();
    return [...entities.map((row) => row.name), ...units.map((row) => row.name)];
  };

  overEveryRole(
    'GET /legal-entities: all; else the entities any role names, and within them the assigned units',
    {
      // Super admins never reach it (requireMember refuses them first); the predicates alone see all.
      super_admin: ['A', 'B', 'A1', 'A2'],
      client_admin: ['A', 'B', 'A1', 'A2'],
      assessor_of_entity_a: ['A', 'A1', 'A2'],
      assessor_of_unit_a1: ['A', 'A1'],
      assessor_elsewhere: ['B'],
      reviewer_of_entity_a: ['A', 'A1', 'A2'],
      reviewer_of_unit_a1: ['A', 'A1'],
      reviewer_elsewhere: ['B'],
    },
    listed,
  );
});
