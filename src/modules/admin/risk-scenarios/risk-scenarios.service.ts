import type { Kysely, Transaction } from 'kysely';
import type { Static } from 'typebox';
import type { Caller } from '../../../platform/auth/principal.js';
import { requireMember, requireRole } from '../../../platform/auth/policies.js';
import { auditFrom } from '../../../platform/audit/audit-events.js';
import { writeAudit } from '../../../platform/audit/audit-writer.js';
import type { DB } from '../../../platform/db/schema.js';
import { inTransaction } from '../../../platform/db/transaction.js';
import { loadPage, pageRequest, type Page } from '../../../platform/http/pagination.js';
import {
  countRiskScenarios,
  insertRiskScenarios,
  listRiskScenarios,
  type RiskScenarioRow,
} from './risk-scenarios.repository.js';
import type { RiskScenarioView } from './risk-scenarios.schemas.js';
import { STARTER_CATALOGUE } from './starter-catalogue.js';

type RiskScenario = Static<typeof RiskScenarioView>;

/**
 * Gives a new enterprise its starter catalogue, inside the caller's transaction (the enterprise's
 * creation and its audit entry own that transaction; no separate audit entry per scenario).
 */
export async function seedStarterCatalogue(trx: Transaction<DB>, enterpriseId: string): Promise<void> {
  await insertRiskScenarios(trx, enterpriseId, STARTER_CATALOGUE);
}

/** The catalogue is enterprise-wide reference data: every member role reads all of it (D5). */
export async function listCatalogue(
  db: Kysely<DB>,
  caller: Caller,
  query: { category?: string | undefined; page?: number | undefined; page_size?: number | undefined },
): Promise<Page<RiskScenario>> {
  requireMember(caller);
  const enterpriseId = caller.enterpriseId;
  const filter = { category: query.category };
  const page = await loadPage(
    pageRequest(query),
    () => countRiskScenarios(db, enterpriseId, filter),
    (limit, offset) => listRiskScenarios(db, enterpriseId, filter, limit, offset),
  );
  return page;
}

/**
 * Client admins only. The category is free text: the starter catalogue uses the Basel event types,
 * but an enterprise may keep its own taxonomy. A duplicate name is refused by risk_scenarios_name_key
 * (409), which rolls the transaction back, audit entry included.
 */
export async function addScenario(
  db: Kysely<DB>,
  caller: Caller,
  input: { name: string; category: string; description?: string | null | undefined },
): Promise<RiskScenario> {
  requireMember(caller);
  requireRole(caller, ['admin'], 'changes to the risk scenario catalogue');
  const enterpriseId = caller.enterpriseId;
  return inTransaction(db, async ({ trx }) => {
    const [scenario] = await insertRiskScenarios(trx, enterpriseId, [
      { name: input.name, category: input.category, description: input.description || null },
    ]);
    const created = scenario!;
    await writeAudit(trx, {
      enterpriseId,
      ...auditFrom(caller),
      action: 'create',
      entityType: 'risk_scenario',
      entityId: created.id,
      details: {
        name: created.name,
        category: created.category,
        description: created.description,
      },
    });
    return created;
  });
}
