import { describe } from 'vitest';
import { scratchTables } from '../../../test/support/scratch-tables.js';
import { ENTITY_A, ENTITY_B, UNIT_A1, UNIT_A2, overEveryRole, overRoles } from '../../../test/support/principals.js';
import { canManageLegalEntities, legalEntityListScope } from './legal-entities.policy.js';

describe('legal-entities.policy (D5)', async () => {
  overRoles('POST /admin/legal-entities and .../business-units: client admins (a super admin has no enterprise to create it in)', { admin: true }, (who) => canManageLegalEntities(who));

  const db = await scratchTables<{
    le: { id: string; name: string };
    bu: { id: string; legal_entity_id: string; name: string };
  }>({
    le: { columns: 'id uuid primary key, name text', rows: [{ id: ENTITY_A, name: 'A' }, { id: ENTITY_B, name: 'B' }] },
    bu: {
      columns: 'id uuid primary key, legal_entity_id uuid, name text',
      rows: [{ id: UNIT_A1, legal_entity_id: ENTITY_A, name: 'A1' }, { id: UNIT_A2, legal_entity_id: ENTITY_A, name: 'A2' }],
    },
  });

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
