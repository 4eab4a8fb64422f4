import { describe } from 'vitest';
import { scratchTables } from '../../../test/support/scratch-tables.js';
import { ENTITY_A, ENTITY_B, UNIT_A1, overEveryRole, overRoles } from '../../../test/support/principals.js';
import { actionScope, canChangeActions } from './actions.policy.js';

describe('actions.policy (D5)', async () => {
  overRoles('POST, PATCH, bulk update, archive: client admins and assessors; reviewers and super admins refused', { admin: true, assessor: true }, (who) => canChangeActions(who));

  // Four actions: of a BRA in unit A1, of a BRA in entity B, unlinked ones by the caller and by someone else.
  const db = await scratchTables<{
    b: { id: string; legal_entity_id: string; business_unit_id: string | null };
    a: { name: string; bra_id: string | null; created_by: string };
  }>({
    b: {
      columns: 'id text primary key, legal_entity_id uuid not null, business_unit_id uuid',
      rows: [
        { id: 'bra-a1', legal_entity_id: ENTITY_A, business_unit_id: UNIT_A1 },
        { id: 'bra-b', legal_entity_id: ENTITY_B, business_unit_id: null },
      ],
    },
    a: { columns: 'name text, bra_id text, created_by text' },
  });
  const inScope = async (who: Parameters<typeof actionScope>[0]) => {
    await db.deleteFrom('a').execute();
    await db
      .insertInto('a')
      .values([
        { name: 'of a BRA in A1', bra_id: 'bra-a1', created_by: 'someone-else' },
        { name: 'of a BRA in B', bra_id: 'bra-b', created_by: 'someone-else' },
        { name: 'unlinked, theirs', bra_id: null, created_by: who.userId },
        { name: 'unlinked, another', bra_id: null, created_by: 'someone-else' },
      ])
      .execute();
    const rows = await db
      .selectFrom('a')
      .leftJoin('b', 'b.id', 'a.bra_id')
      .select(['a.name', actionScope(who).as('in_scope')])
      .orderBy('a.name')
      .execute();
    return Object.fromEntries(rows.map((row) => [row.name, row.in_scope]));
  };
  const scope = (ofA1: boolean, ofB: boolean, theirs: boolean, another: boolean) => ({
    'of a BRA in A1': ofA1,
    'of a BRA in B': ofB,
    'unlinked, theirs': theirs,
    'unlinked, another': another,
  });

  overEveryRole(
    'actionScope (GET /mitigation-actions, and what assessors may change): all; actions of assigned BRAs; an assessor’s own unlinked ones',
    {
      // Super admins never reach it: requireMember refuses them first. The predicate alone, like the
      // platform's assignment scope, gives a whole-enterprise view.
      super_admin: scope(true, true, true, true),
      client_admin: scope(true, true, true, true),
      assessor_of_entity_a: scope(true, false, true, false),
      assessor_of_unit_a1: scope(true, false, true, false),
      assessor_elsewhere: scope(false, true, true, false),
      reviewer_of_entity_a: scope(true, false, false, false),
      reviewer_of_unit_a1: scope(true, false, false, false),
      reviewer_elsewhere: scope(false, true, false, false),
    },
    inScope,
  );
});
