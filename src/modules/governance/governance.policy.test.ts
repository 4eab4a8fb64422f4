import { describe } from 'vitest';
import { scratchTables } from '../../../test/support/scratch-tables.js';
import { ENTITY_A, ENTITY_B, UNIT_A1, UNIT_A2, codeOf, overEveryRole, perPrincipal, overRoles } from '../../../test/support/principals.js';
import { canManageRiskAppetite, requireVisibleFilter, visibleAppetites } from './governance.policy.js';

describe('governance.policy (D5)', async () => {
  overRoles('POST and DELETE /governance/risk-appetite: client admins only', { admin: true }, (who) => canManageRiskAppetite(who));

  // The enterprise default, an override of entity A, of its units A1 and A2, and of entity B.
  const db = await scratchTables<{ appetites: { name: string; legal_entity_id: string | null; business_unit_id: string | null } }>({
    appetites: {
      columns: 'name text, legal_entity_id uuid, business_unit_id uuid',
      rows: [
        { name: 'default', legal_entity_id: null, business_unit_id: null },
        { name: 'A', legal_entity_id: ENTITY_A, business_unit_id: null },
        { name: 'A1', legal_entity_id: ENTITY_A, business_unit_id: UNIT_A1 },
        { name: 'A2', legal_entity_id: ENTITY_A, business_unit_id: UNIT_A2 },
        { name: 'B', legal_entity_id: ENTITY_B, business_unit_id: null },
      ],
    },
  });
  const visible = async (who: Parameters<typeof visibleAppetites>[0]) =>
    (await db.selectFrom('appetites').select('name').where(visibleAppetites(who)).orderBy('name').execute()).map((row) => row.name);

  overEveryRole(
    'GET .../risk-appetite and .../history: all; else the default, entities any role names, and assigned units',
    {
      // Super admins never reach it (requireMember refuses them first); the predicate alone sees all.
      super_admin: ['A', 'A1', 'A2', 'B', 'default'],
      client_admin: ['A', 'A1', 'A2', 'B', 'default'],
      assessor_of_entity_a: ['A', 'A1', 'A2', 'default'],
      assessor_of_unit_a1: ['A', 'A1', 'default'],
      assessor_elsewhere: ['B', 'default'],
      reviewer_of_entity_a: ['A', 'A1', 'A2', 'default'],
      reviewer_of_unit_a1: ['A', 'A1', 'default'],
      reviewer_elsewhere: ['B', 'default'],
    },
    visible,
  );

  overEveryRole(
    'a list filter naming an entity or unit the caller does not see: 403 (D10.1)',
    perPrincipal([null, null], [null, null], [[null, null], [null, 'FORBIDDEN'], ['FORBIDDEN', 'FORBIDDEN']], [[null, null], [null, 'FORBIDDEN'], ['FORBIDDEN', 'FORBIDDEN']]),
    (who) => [
      codeOf(() => requireVisibleFilter(who, { legalEntityId: ENTITY_A })),
      codeOf(() => requireVisibleFilter(who, { businessUnit: { id: UNIT_A2, legalEntityId: ENTITY_A } })),
    ],
  );
});
