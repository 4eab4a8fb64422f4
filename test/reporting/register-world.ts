import type { TestContext } from '../support/app.js';
import { insertAction, utcDate } from '../support/actions-factories.js';
import { addScenarioLink, createAppetite, createBra, createBraWorld, createSubControl, linkControl, rateBoth } from '../support/bras-factories.js';

/**
 * BRAs for the register suites: in the world's entity an older and a newer approved entity-level BRA, an
 * approved BRA of its unit, a live one and a cancelled one; an approved BRA elsewhere and one in another
 * enterprise. The newer entity BRA has an excluded scenario, controls per scenario and actions.
 */
export async function createRegisterWorld(ctx: TestContext) {
  const w = await createBraWorld(ctx);
  const bra = async (values: { enterpriseId?: string; legalEntityId?: string; businessUnitId?: string | null; status: 'approved' | 'in_progress' | 'cancelled'; approvedAt?: string; name?: string }) => {
    const row = await createBra(ctx, {
      enterpriseId: values.enterpriseId ?? w.enterprise.id,
      legalEntityId: values.legalEntityId ?? w.entity.id,
      businessUnitId: values.businessUnitId ?? null,
      status: values.status,
      ...(values.name !== undefined ? { name: values.name } : {}),
    });
    if (values.approvedAt !== undefined) await ctx.db.updateTable('bras').set({ approved_at: new Date(values.approvedAt), period: values.approvedAt.slice(0, 4) }).where('id', '=', row.id).execute();
    return row;
  };
  const scenario = async (b: { id: string; enterprise_id: string }, inherent: [number, number], residual: [number, number], included = true) => {
    const link = await addScenarioLink(ctx, b, included);
    if (included) await rateBoth(ctx, link, inherent, residual);
    return link;
  };

  const olderEntityBra = await bra({ status: 'approved', approvedAt: '2025-06-30T10:00:00Z' });
  const olderScenario = await scenario(olderEntityBra, [5, 5], [5, 5]);
  const entityBra = await bra({ status: 'approved', approvedAt: '2026-06-30T10:00:00Z' });
  const high = await scenario(entityBra, [5, 4], [4, 3]); // residual 12
  const low = await scenario(entityBra, [3, 3], [2, 2]); // residual 4
  const excluded = await scenario(entityBra, [1, 1], [1, 1], false);
  const unitBra = await bra({ businessUnitId: w.unit.id, status: 'approved', approvedAt: '2026-03-31T10:00:00Z' });
  const unitScenario = await scenario(unitBra, [4, 4], [3, 3]); // residual 9: within the default 9
  const liveBra = await bra({ status: 'in_progress' });
  const liveScenario = await scenario(liveBra, [2, 2], [2, 1]);
  const cancelledBra = await bra({ status: 'cancelled' });
  await scenario(cancelledBra, [2, 2], [2, 2]);
  const elsewhereBra = await bra({ legalEntityId: w.elsewhere.id, status: 'approved', approvedAt: '2026-01-15T10:00:00Z' });
  const elsewhereScenario = await scenario(elsewhereBra, [5, 3], [5, 2]); // residual 10
  const foreignBra = await bra({ enterpriseId: w.other.id, legalEntityId: w.otherEntity.id, status: 'approved', approvedAt: '2026-02-01T10:00:00Z' });
  const foreignScenario = await scenario(foreignBra, [5, 5], [5, 5]);

  // The entity's own appetite (11) applies to its BRAs; the unit and elsewhere keep the default (9).
  await createAppetite(ctx, w.enterprise.id, { threshold: 11, legalEntityId: w.entity.id, level: 'High' });
  const weak = await createSubControl(ctx, w.enterprise.id, { tod: 'C', toe: '4', effectiveness: 'Less Effective' });
  const strong = await createSubControl(ctx, w.enterprise.id, { tod: 'A', toe: '1', effectiveness: 'Highly Effective' });
  await linkControl(ctx, entityBra, strong.subControl.id);
  await ctx.db.updateTable('bra_controls').set({ bra_risk_scenario_id: high.id }).where('bra_id', '=', entityBra.id).execute();
  await ctx.db.insertInto('bra_controls').values({ enterprise_id: w.enterprise.id, bra_id: entityBra.id, sub_control_id: weak.subControl.id, bra_risk_scenario_id: high.id }).execute();
  await ctx.db.insertInto('bra_controls').values({ enterprise_id: w.enterprise.id, bra_id: entityBra.id, sub_control_id: weak.subControl.id }).execute();
  await insertAction(ctx, { enterpriseId: w.enterprise.id, braId: entityBra.id, linkId: high.id, dueDate: utcDate(-3), priority: 'high' });
  await insertAction(ctx, { enterpriseId: w.enterprise.id, braId: entityBra.id, linkId: high.id, dueDate: utcDate(10) });
  await insertAction(ctx, { enterpriseId: w.enterprise.id, braId: entityBra.id, linkId: high.id, status: 'completed', dueDate: utcDate(-10) });
  await insertAction(ctx, { enterpriseId: w.enterprise.id, braId: entityBra.id, linkId: high.id, archived: true, dueDate: utcDate(-10) });

  return {
    w,
    bras: { olderEntityBra, entityBra, unitBra, liveBra, cancelledBra, elsewhereBra, foreignBra },
    links: { olderScenario, high, low, excluded, unitScenario, liveScenario, elsewhereScenario, foreignScenario },
  };
}
export type RegisterWorld = Awaited<ReturnType<typeof createRegisterWorld>>;
