import { sql, type Kysely } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { freshDatabase } from '../../../test/support/database.js';
import { D5_PRINCIPALS, ENTITY_A, ENTITY_B, UNIT_A1, UNIT_A2, codeOf, byRole, overEveryRole } from '../../../test/support/principals.js';
import { braScopeFor, canApproveBra, canCommentOnBra, canCreateBraIn, canEditBra, canGiveBraVerdict, canReadBra, canRollForwardBra, requireBraEditor } from './bras.policy.js';

/** D5 for BRAs, over every role: a BRA of legal entity A's unit A1, and one of entity B. */
const braInA1 = { legal_entity_id: ENTITY_A, business_unit_id: UNIT_A1 };
const braInA2 = { legal_entity_id: ENTITY_A, business_unit_id: UNIT_A2 };
const braInB = { legal_entity_id: ENTITY_B, business_unit_id: null };

describe('bras.policy (D5)', () => {
  overEveryRole(
    'reading a BRA (GET /bras/{id} and its content): client admins; assessors and reviewers assigned to its entity or unit',
    {
      super_admin: [false, false, false],
      client_admin: [true, true, true],
      assessor_of_entity_a: [true, true, false],
      assessor_of_unit_a1: [true, false, false],
      assessor_elsewhere: [false, false, true],
      reviewer_of_entity_a: [true, true, false],
      reviewer_of_unit_a1: [true, false, false],
      reviewer_elsewhere: [false, false, true],
    },
    (who) => [braInA1, braInA2, braInB].map((bra) => canReadBra(who, bra)),
  );

  overEveryRole(
    'creating a BRA (POST /bras): client admins; assessors in assigned entities; never reviewers',
    {
      super_admin: [false, false],
      client_admin: [true, true],
      assessor_of_entity_a: [true, false],
      assessor_of_unit_a1: [true, false],
      assessor_elsewhere: [false, true],
      reviewer_of_entity_a: [false, false],
      reviewer_of_unit_a1: [false, false],
      reviewer_elsewhere: [false, false],
    },
    (who) => [braInA1, braInB].map((place) => canCreateBraIn(who, place)),
  );

  overEveryRole(
    'rolling an approved BRA forward: client admins; assessors assigned to its entity or unit, whoever created it; never reviewers',
    {
      super_admin: [false, false, false],
      client_admin: [true, true, true],
      assessor_of_entity_a: [true, true, false],
      assessor_of_unit_a1: [true, false, false],
      assessor_elsewhere: [false, false, true],
      reviewer_of_entity_a: [false, false, false],
      reviewer_of_unit_a1: [false, false, false],
      reviewer_elsewhere: [false, false, false],
    },
    (who) => [braInA1, braInA2, braInB].map((bra) => canRollForwardBra(who, bra)),
  );

  overEveryRole(
    'changing a BRA (PATCH, content, submit): client admins; the assessor who created it, while assigned',
    {
      super_admin: [false, false],
      client_admin: [true, true],
      assessor_of_entity_a: [true, false],
      assessor_of_unit_a1: [true, false],
      assessor_elsewhere: [false, false],
      reviewer_of_entity_a: [false, false],
      reviewer_of_unit_a1: [false, false],
      reviewer_elsewhere: [false, false],
    },
    (who) => [
      canEditBra(who, { ...braInA1, created_by: who.userId }),
      canEditBra(who, { ...braInA1, created_by: 'someone-else' }),
    ],
  );

  overEveryRole(
    'approving, cancelling, returning: client admins only',
    byRole({ admin: true }),
    (who) => canApproveBra(who),
  );

  overEveryRole(
    'commenting on a BRA (POST /bras/{id}/comments): client admins; assessors and reviewers assigned to it',
    {
      super_admin: [false, false],
      client_admin: [true, true],
      assessor_of_entity_a: [true, false],
      assessor_of_unit_a1: [true, false],
      assessor_elsewhere: [false, true],
      reviewer_of_entity_a: [true, false],
      reviewer_of_unit_a1: [true, false],
      reviewer_elsewhere: [false, true],
    },
    (who) => [braInA1, braInB].map((bra) => canCommentOnBra(who, bra)),
  );

  overEveryRole(
    'a comment with a verdict: client admins; reviewers assigned to the BRA; never assessors',
    {
      super_admin: [false, false],
      client_admin: [true, true],
      assessor_of_entity_a: [false, false],
      assessor_of_unit_a1: [false, false],
      assessor_elsewhere: [false, false],
      reviewer_of_entity_a: [true, false],
      reviewer_of_unit_a1: [true, false],
      reviewer_elsewhere: [false, true],
    },
    (who) => [braInA1, braInB].map((bra) => canGiveBraVerdict(who, bra)),
  );

  it('an assessor who created a BRA and then lost the assignment may no longer change it (403)', () => {
    const creator = D5_PRINCIPALS.assessor_elsewhere;
    expect(codeOf(() => requireBraEditor(creator, { ...braInA1, created_by: creator.userId }))).toBe('FORBIDDEN');
  });

  describe('braScopeFor: the read rule as the SQL predicate of the list', async () => {
    const database = await freshDatabase();
    afterAll(() => database.close());
    const db = database.db as unknown as Kysely<{ b: { legal_entity_id: string; business_unit_id: string | null } }>;
    await sql`create table b (legal_entity_id uuid not null, business_unit_id uuid)`.execute(db);
    const places = [braInA1, braInA2, { legal_entity_id: ENTITY_A, business_unit_id: null }, braInB];
    await db.insertInto('b').values(places).execute();

    for (const [name, who] of Object.entries(D5_PRINCIPALS)) {
      if (who.role === 'super_admin') continue;
      it(`${name}: the rows selected are exactly those canReadBra allows`, async () => {
        const selected = await db.selectFrom('b').selectAll().where(braScopeFor(who)).execute();
        expect(selected).toHaveLength(places.filter((place) => canReadBra(who, place)).length);
        expect(selected).toEqual(expect.arrayContaining(places.filter((place) => canReadBra(who, place))));
      });
    }
  });
});
