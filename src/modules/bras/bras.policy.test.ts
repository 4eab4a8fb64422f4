import { describe, expect, it } from 'vitest';
import { placesTable } from '../../../test/support/places-table.js';
import { D5_PRINCIPALS, ENTITY_A, ENTITY_B, UNIT_A1, UNIT_A2, codeOf, overEveryRole, perPrincipal, overRoles } from '../../../test/support/principals.js';
import { braScopeFor, canApproveBra, canCommentOnBra, canCreateBraIn, canEditBra, canGiveBraVerdict, canReadBra, canRollForwardBra, requireBraEditor } from './bras.policy.js';

/** D5 for BRAs, over every role: a BRA of legal entity A's unit A1, and one of entity B. */
const braInA1 = { legal_entity_id: ENTITY_A, business_unit_id: UNIT_A1 };
const braInA2 = { legal_entity_id: ENTITY_A, business_unit_id: UNIT_A2 };
const braInB = { legal_entity_id: ENTITY_B, business_unit_id: null };

describe('bras.policy (D5)', () => {
  overEveryRole(
    'reading a BRA (GET /bras/{id} and its content): client admins; assessors and reviewers assigned to its entity or unit',
    perPrincipal([false, false, false], [true, true, true], [[true, true, false], [true, false, false], [false, false, true]], [[true, true, false], [true, false, false], [false, false, true]]),
    (who) => [braInA1, braInA2, braInB].map((bra) => canReadBra(who, bra)),
  );

  overEveryRole(
    'creating a BRA (POST /bras): client admins; assessors in assigned entities; never reviewers',
    perPrincipal([false, false], [true, true], [[true, false], [true, false], [false, true]], [[false, false], [false, false], [false, false]]),
    (who) => [braInA1, braInB].map((place) => canCreateBraIn(who, place)),
  );

  overEveryRole(
    'rolling an approved BRA forward: client admins; assessors assigned to its entity or unit, whoever created it; never reviewers',
    perPrincipal([false, false, false], [true, true, true], [[true, true, false], [true, false, false], [false, false, true]], [[false, false, false], [false, false, false], [false, false, false]]),
    (who) => [braInA1, braInA2, braInB].map((bra) => canRollForwardBra(who, bra)),
  );

  overEveryRole(
    'changing a BRA (PATCH, content, submit): client admins; the assessor who created it, while assigned',
    perPrincipal([false, false], [true, true], [[true, false], [true, false], [false, false]], [[false, false], [false, false], [false, false]]),
    (who) => [
      canEditBra(who, { ...braInA1, created_by: who.userId }),
      canEditBra(who, { ...braInA1, created_by: 'someone-else' }),
    ],
  );

  overRoles('approving, cancelling, returning: client admins only', { admin: true }, (who) => canApproveBra(who));

  overEveryRole(
    'commenting on a BRA (POST /bras/{id}/comments): client admins; assessors and reviewers assigned to it',
    perPrincipal([false, false], [true, true], [[true, false], [true, false], [false, true]], [[true, false], [true, false], [false, true]]),
    (who) => [braInA1, braInB].map((bra) => canCommentOnBra(who, bra)),
  );

  overEveryRole(
    'a comment with a verdict: client admins; reviewers assigned to the BRA; never assessors',
    perPrincipal([false, false], [true, true], [[false, false], [false, false], [false, false]], [[true, false], [true, false], [false, true]]),
    (who) => [braInA1, braInB].map((bra) => canGiveBraVerdict(who, bra)),
  );

  it('an assessor who created a BRA and then lost the assignment may no longer change it (403)', () => {
    const creator = D5_PRINCIPALS.assessor_elsewhere;
    expect(codeOf(() => requireBraEditor(creator, { ...braInA1, created_by: creator.userId }))).toBe('FORBIDDEN');
  });

  describe('braScopeFor: the read rule as the SQL predicate of the list', async () => {
    const places = [braInA1, braInA2, { legal_entity_id: ENTITY_A, business_unit_id: null }, braInB];
    const db = await placesTable(places);

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
