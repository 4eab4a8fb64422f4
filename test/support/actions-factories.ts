import { randomUUID } from 'node:crypto';
import type { ActionPriority, ActionStatus } from '../../src/platform/db/tables/actions.js';
import type { BraStatus } from '../../src/platform/db/tables/bras.js';
import { createLegalEntity, type Seeding } from './factories.js';

/**
 * Factories for the actions suites. They insert rows directly (BRAs and scenario links belong to the BRA
 * module; actions are inserted only to set up states such as archived or old rows); the behaviour under
 * test always goes through the API (or, in test/service, the services).
 */
const unique = (prefix: string) => `${prefix} ${randomUUID().slice(0, 8)}`;

/** 'YYYY-MM-DD' of today (UTC) shifted by whole days. */
export function utcDate(offsetDays = 0): string {
  const date = new Date();
  date.setUTCDate(date.getUTCDate() + offsetDays);
  return date.toISOString().slice(0, 10);
}

export async function createBra(
  ctx: Seeding,
  values: {
    enterpriseId: string;
    legalEntityId?: string;
    businessUnitId?: string | null;
    name?: string;
    status?: BraStatus;
    createdBy?: string | null;
  },
) {
  const legalEntityId = values.legalEntityId ?? (await createLegalEntity(ctx, values.enterpriseId)).id;
  return ctx.db
    .insertInto('bras')
    .values({
      enterprise_id: values.enterpriseId,
      name: values.name ?? unique('BRA'),
      legal_entity_id: legalEntityId,
      business_unit_id: values.businessUnitId ?? null,
      status: values.status ?? 'in_progress',
      period: 'FY2026',
      assessor: 'Test Assessor',
      created_by: values.createdBy ?? null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A scenario link of the BRA, to a new catalogue scenario of the enterprise unless one is named. */
export async function createScenarioLink(
  ctx: Seeding,
  bra: { id: string; enterprise_id: string },
  values: { riskScenarioId?: string; scenarioName?: string; included?: boolean } = {},
) {
  const riskScenarioId =
    values.riskScenarioId ??
    (
      await ctx.db
        .insertInto('risk_scenarios')
        .values({ enterprise_id: bra.enterprise_id, name: values.scenarioName ?? unique('Scenario'), category: 'External fraud' })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  return ctx.db
    .insertInto('bra_risk_scenarios')
    .values({ enterprise_id: bra.enterprise_id, bra_id: bra.id, risk_scenario_id: riskScenarioId, included: values.included ?? true })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export interface ActionValues {
  enterpriseId: string;
  action?: string;
  owner?: string;
  status?: ActionStatus;
  priority?: ActionPriority;
  actionType?: string;
  dueDate?: string;
  braId?: string | null;
  linkId?: string | null;
  archived?: boolean;
  createdBy?: string | null;
  createdAt?: Date;
}

function actionRow(values: ActionValues) {
  const archived = values.archived ?? false;
  return {
    enterprise_id: values.enterpriseId,
    action: values.action ?? unique('Action'),
    owner: values.owner ?? 'Operations',
    status: values.status ?? 'created',
    priority: values.priority ?? 'medium',
    action_type: values.actionType ?? 'Process',
    due_date: values.dueDate ?? utcDate(30),
    bra_id: values.braId ?? null,
    bra_risk_scenario_id: values.linkId ?? null,
    archived,
    archived_at: archived ? new Date() : null,
    created_by: values.createdBy ?? null,
    ...(values.createdAt !== undefined ? { created_at: values.createdAt } : {}),
  };
}

/** An action row in any state (archived, overdue, old), without going through the API. */
export async function insertAction(ctx: Seeding, values: ActionValues) {
  return ctx.db.insertInto('mitigation_actions').values(actionRow(values)).returningAll().executeTakeFirstOrThrow();
}

/** Many rows in one statement (the index suite's few thousand). */
export async function insertActions(ctx: Seeding, values: ActionValues[]) {
  for (let start = 0; start < values.length; start += 500) {
    await ctx.db.insertInto('mitigation_actions').values(values.slice(start, start + 500).map(actionRow)).execute();
  }
}
