import { randomUUID } from 'node:crypto';
import type { BraStatus, RatingType } from '../../src/platform/db/tables/bras.js';
import { rateRisk } from '../../src/modules/bras/risk-rating.js';
import { assignEntity, createBusinessUnit, createEnterprise, createLegalEntity, createUser, type TestUser, type Seeding } from './factories.js';

/**
 * BRA factories: rows written directly so that a suite can set up any state (the behaviour under test
 * goes through the API, or the services in test/service). Each creates the parents it needs unless given them.
 */
const unique = (prefix: string) => `${prefix} ${randomUUID().slice(0, 8)}`;

/** An appetite record; both scope ids null is the enterprise default that every enterprise has (D6.9). */
export async function createAppetite(
  ctx: Seeding,
  enterpriseId: string,
  values: { threshold: number; legalEntityId?: string | null; businessUnitId?: string | null; level?: 'Low' | 'Medium' | 'High' | 'Very High' },
) {
  return ctx.db
    .insertInto('risk_appetites')
    .values({
      enterprise_id: enterpriseId,
      legal_entity_id: values.legalEntityId ?? null,
      business_unit_id: values.businessUnitId ?? null,
      risk_level: values.level ?? 'Medium',
      threshold_value: values.threshold,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** An enterprise as the service creates it: with its default appetite (Medium, 9). */
export async function createBraEnterprise(ctx: Seeding) {
  const enterprise = await createEnterprise(ctx);
  await createAppetite(ctx, enterprise.id, { threshold: 9 });
  return enterprise;
}

/**
 * One enterprise with a legal entity and unit, and a member of every role: the admin, an assessor and a
 * reviewer assigned to the entity, an assessor assigned only to the unit, an assessor and a reviewer
 * assigned elsewhere; plus another enterprise with its admin and entity.
 */
export async function createBraWorld(ctx: Seeding) {
  const enterprise = await createBraEnterprise(ctx);
  const entity = await createLegalEntity(ctx, enterprise.id);
  const unit = await createBusinessUnit(ctx, enterprise.id, entity.id);
  const otherUnit = await createBusinessUnit(ctx, enterprise.id, entity.id);
  const elsewhere = await createLegalEntity(ctx, enterprise.id);
  const member = (role: TestUser['role']) => createUser(ctx, { role, enterpriseId: enterprise.id });
  const [admin, assessor, reviewer, unitAssessor, outsideAssessor, outsideReviewer] = await Promise.all([
    member('admin'),
    member('assessor'),
    member('reviewer'),
    member('assessor'),
    member('assessor'),
    member('reviewer'),
  ]);
  await assignEntity(ctx, assessor, entity.id);
  await assignEntity(ctx, reviewer, entity.id);
  await assignEntity(ctx, unitAssessor, entity.id, unit.id);
  await assignEntity(ctx, outsideAssessor, elsewhere.id);
  await assignEntity(ctx, outsideReviewer, elsewhere.id);
  const superAdmin = await createUser(ctx, { role: 'super_admin' });
  const other = await createBraEnterprise(ctx);
  const otherAdmin = await createUser(ctx, { role: 'admin', enterpriseId: other.id });
  const otherEntity = await createLegalEntity(ctx, other.id);
  return {
    enterprise,
    entity,
    unit,
    otherUnit,
    elsewhere,
    admin,
    assessor,
    reviewer,
    unitAssessor,
    outsideAssessor,
    outsideReviewer,
    superAdmin,
    other,
    otherAdmin,
    otherEntity,
  };
}
export type BraWorld = Awaited<ReturnType<typeof createBraWorld>>;

/** The enterprise default (Medium, 9) unless the enterprise already has one: every enterprise has it (D6.9). */
export async function ensureDefaultAppetite(ctx: Seeding, enterpriseId: string): Promise<void> {
  await ctx.db
    .insertInto('risk_appetites')
    .values({ enterprise_id: enterpriseId, risk_level: 'Medium', threshold_value: 9 })
    .onConflict((oc) => oc.constraint('risk_appetites_scope_key').doNothing())
    .execute();
}

/** A BRA row; its enterprise gets the default appetite if it has none (reading a BRA needs it). */
export async function createBra(
  ctx: Seeding,
  values: {
    enterpriseId: string;
    legalEntityId: string;
    businessUnitId?: string | null;
    createdBy?: string | null;
    status?: BraStatus;
    name?: string;
  },
) {
  await ensureDefaultAppetite(ctx, values.enterpriseId);
  return ctx.db
    .insertInto('bras')
    .values({
      enterprise_id: values.enterpriseId,
      name: values.name ?? unique('BRA'),
      legal_entity_id: values.legalEntityId,
      business_unit_id: values.businessUnitId ?? null,
      status: values.status ?? 'draft',
      period: 'FY2026',
      assessor: 'Test Assessor',
      created_by: values.createdBy ?? null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function createRiskScenario(ctx: Seeding, enterpriseId: string, category = 'External fraud') {
  return ctx.db
    .insertInto('risk_scenarios')
    .values({ enterprise_id: enterpriseId, name: unique('Scenario'), category })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A catalogue scenario (made for the purpose) linked to the BRA. */
export async function addScenarioLink(ctx: Seeding, bra: { id: string; enterprise_id: string }, included = true) {
  const scenario = await createRiskScenario(ctx, bra.enterprise_id);
  return ctx.db
    .insertInto('bra_risk_scenarios')
    .values({ enterprise_id: bra.enterprise_id, bra_id: bra.id, risk_scenario_id: scenario.id, included })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A current rating of a link (an earlier current one of the same type must not exist). */
export async function addRating(
  ctx: Seeding,
  link: { id: string; bra_id: string; enterprise_id: string },
  type: RatingType,
  impact: number,
  likelihood: number,
) {
  return ctx.db
    .insertInto('bra_ratings')
    .values({
      enterprise_id: link.enterprise_id,
      bra_id: link.bra_id,
      bra_risk_scenario_id: link.id,
      rating_type: type,
      ...rateRisk(impact, likelihood),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Both ratings of a link. */
export async function rateBoth(ctx: Seeding, link: { id: string; bra_id: string; enterprise_id: string }, inherent: [number, number], residual: [number, number]) {
  await addRating(ctx, link, 'inherent', ...inherent);
  await addRating(ctx, link, 'residual', ...residual);
}

/** A key control with one sub-control (tod/toe with their 3.5 effectiveness when given). */
export async function createSubControl(
  ctx: Seeding,
  enterpriseId: string,
  values: { archived?: boolean; tod?: 'A' | 'B' | 'C' | 'D' | 'E'; toe?: '1' | '2' | '3' | '4' | '5'; effectiveness?: 'Highly Effective' | 'Effective' | 'Moderately Effective' | 'Less Effective' | 'Not Effective' } = {},
) {
  const keyControl = await ctx.db
    .insertInto('key_controls')
    .values({ enterprise_id: enterpriseId, name: unique('Key control') })
    .returningAll()
    .executeTakeFirstOrThrow();
  const subControl = await ctx.db
    .insertInto('sub_controls')
    .values({
      enterprise_id: enterpriseId,
      key_control_id: keyControl.id,
      name: unique('Sub-control'),
      tod: values.tod ?? null,
      toe: values.toe ?? null,
      total_effectiveness: values.effectiveness ?? null,
      archived: values.archived ?? false,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { keyControl, subControl };
}

export async function linkControl(ctx: Seeding, bra: { id: string; enterprise_id: string }, subControlId: string) {
  return ctx.db
    .insertInto('bra_controls')
    .values({ enterprise_id: bra.enterprise_id, bra_id: bra.id, sub_control_id: subControlId })
    .returningAll()
    .executeTakeFirstOrThrow();
}
