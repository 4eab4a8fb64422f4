import { randomUUID } from 'node:crypto';
import { totalEffectiveness } from '../../src/modules/controls/effectiveness-matrix.js';
import type { TestOfDesign, TestOfEffectiveness } from '../../src/platform/db/tables/controls.js';
import { createLegalEntity, type Seeding } from './factories.js';

/**
 * Factories of the control library. They write rows directly so that a suite can set up any state; the
 * behaviour under test always goes through the API (or, in test/service, the services).
 */
const unique = (prefix: string) => `${prefix} ${randomUUID().slice(0, 8)}`;

export async function createKeyControl(ctx: Seeding, enterpriseId: string, values: { name?: string; archived?: boolean } = {}) {
  return ctx.db
    .insertInto('key_controls')
    .values({
      enterprise_id: enterpriseId,
      name: values.name ?? unique('Key control'),
      description: null,
      archived: values.archived ?? false,
      archived_at: values.archived === true ? new Date() : null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A sub-control (with its own key control unless given one), its total computed from the 3.5 matrix. */
export async function createSubControl(
  ctx: Seeding,
  enterpriseId: string,
  values: { keyControlId?: string; name?: string; tod?: TestOfDesign | null; toe?: TestOfEffectiveness | null; archived?: boolean } = {},
) {
  const keyControlId = values.keyControlId ?? (await createKeyControl(ctx, enterpriseId)).id;
  const tod = values.tod ?? null;
  const toe = values.toe ?? null;
  return ctx.db
    .insertInto('sub_controls')
    .values({
      enterprise_id: enterpriseId,
      key_control_id: keyControlId,
      name: values.name ?? unique('Sub-control'),
      description: null,
      tod,
      toe,
      total_effectiveness: totalEffectiveness(tod, toe),
      archived: values.archived ?? false,
      archived_at: values.archived === true ? new Date() : null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A BRA row in the given entity (and unit), made here only as the parent of control links. */
export async function createBraRow(
  ctx: Seeding,
  enterpriseId: string,
  values: { legalEntityId?: string; businessUnitId?: string | null } = {},
) {
  const legalEntityId = values.legalEntityId ?? (await createLegalEntity(ctx, enterpriseId)).id;
  return ctx.db
    .insertInto('bras')
    .values({
      enterprise_id: enterpriseId,
      name: unique('BRA'),
      legal_entity_id: legalEntityId,
      business_unit_id: values.businessUnitId ?? null,
      period: '2026',
      assessor: 'Test Assessor',
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * Links a sub-control to a BRA (D6.6), the way the effectiveness scope sees it (D7.1). Written as a row
 * here so that the scoped counts are tested on their own; once `POST /bras/{id}/controls` exists, this
 * is the one place to switch to it.
 */
export async function linkSubControlToBra(ctx: Seeding, enterpriseId: string, braId: string, subControlId: string) {
  return ctx.db
    .insertInto('bra_controls')
    .values({ enterprise_id: enterpriseId, bra_id: braId, sub_control_id: subControlId })
    .returningAll()
    .executeTakeFirstOrThrow();
}
