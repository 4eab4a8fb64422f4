import { describe, expect, it } from 'vitest';
import { placesTable } from '../../../test/support/places-table.js';
import { D5_PRINCIPALS, ENTITY_A, ENTITY_B, UNIT_A1, UNIT_A2, codeOf, overEveryRole, perPrincipal, overRoles } from '../../../test/support/principals.js';
import { canReadBra } from '../bras/bras.policy.js';
import { canReadRegister, canReadReport, registerScope, requireBusinessUnitFilter, requireLegalEntityFilter } from './reporting.policy.js';

/** D5 for the register, the dashboard and the report, over every role. */
const inA1 = { legal_entity_id: ENTITY_A, business_unit_id: UNIT_A1 };
const inA2 = { legal_entity_id: ENTITY_A, business_unit_id: UNIT_A2 };
const inB = { legal_entity_id: ENTITY_B, business_unit_id: null };

describe('reporting.policy (D5)', () => {
  overRoles('the register and the dashboard: every enterprise member (rows narrowed by scope); never super admins', { admin: true, assessor: true, reviewer: true }, (who) => canReadRegister(who),);

  // The read rule's own table is in bras.policy.test.ts: the report follows it, whatever it says.
  describe('a BRA report: whoever may read the BRA', () => {
    it.each(Object.entries(D5_PRINCIPALS))('%s: as canReadBra for a BRA of unit A1, of unit A2, of entity B', (_name, who) => {
      const places = [inA1, inA2, inB];
      expect(places.map((bra) => canReadReport(who, bra))).toEqual(places.map((bra) => canReadBra(who, bra)));
    });
  });

  overEveryRole(
    'filters naming entity A, unit A1, unit A2, entity B: allowed where assigned (else 403)',
    perPrincipal([true, true, true, true], [true, true, true, true], [[true, true, true, false], [true, true, false, false], [false, false, false, true]], [[true, true, true, false], [true, true, false, false], [false, false, false, true]]),
    (who) => [
      codeOf(() => requireLegalEntityFilter(who, ENTITY_A)) === null,
      codeOf(() => requireBusinessUnitFilter(who, { legal_entity_id: ENTITY_A, id: UNIT_A1 })) === null,
      codeOf(() => requireBusinessUnitFilter(who, { legal_entity_id: ENTITY_A, id: UNIT_A2 })) === null,
      codeOf(() => requireLegalEntityFilter(who, ENTITY_B)) === null,
    ],
  );

  describe('registerScope: the report rule as the SQL predicate of the register', async () => {
    const places = [inA1, inA2, { legal_entity_id: ENTITY_A, business_unit_id: null }, inB];
    const db = await placesTable(places);
    for (const [name, who] of Object.entries(D5_PRINCIPALS)) {
      if (who.role === 'super_admin') continue;
      it(`${name}: the rows selected are exactly the BRAs whose report the caller may read`, async () => {
        const selected = await db.selectFrom('b').selectAll().where(registerScope(who)).execute();
        const readable = places.filter((place) => canReadReport(who, place));
        expect(selected).toHaveLength(readable.length);
        expect(selected).toEqual(expect.arrayContaining(readable));
      });
    }
  });
});
