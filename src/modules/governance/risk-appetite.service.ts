import type { Executor } from '../../platform/db/schema.js';
import { inTransaction } from '../../platform/db/transaction.js';
import { findApplicableAppetite, insertAppetite, insertAppetiteHistory, type AppetiteScope } from './risk-appetite.repository.js';

/** D6.9: every enterprise starts with this enterprise-wide appetite. */
export const DEFAULT_APPETITE = {
  risk_level: 'Medium',
  threshold_value: 9,
  description: 'Enterprise default',
  reason: 'Enterprise created',
} as const;

export type AppetiteRecord = NonNullable<Awaited<ReturnType<typeof findApplicableAppetite>>>;

/**
 * Risk appetite (4.5, D6.9, D7.4). Bound to an executor: handed a caller's transaction, its reads and
 * writes are part of the caller's work (a new enterprise and its default appetite commit together).
 */
export function createRiskAppetiteService({ db }: { db: Executor }) {
  return {
    /**
     * The appetite that applies to a BRA of this legal entity and business unit (D6.9). Every enterprise
     * has a default, so a missing one is a broken invariant, not a client error.
     */
    async applicableAppetite(enterpriseId: string, legalEntityId: string, businessUnitId: string | null): Promise<AppetiteRecord> {
      const appetite = await findApplicableAppetite(db, enterpriseId, { legalEntityId, businessUnitId });
      if (appetite === undefined) throw new Error(`enterprise ${enterpriseId} has no default risk appetite`);
      return appetite;
    },

    /** The enterprise-wide default (both scope columns null) and its first history entry. */
    async createEnterpriseDefault(enterpriseId: string, actorId: string): Promise<AppetiteRecord> {
      const scope: AppetiteScope = { legalEntityId: null, businessUnitId: null };
      return inTransaction(db, async ({ trx }) => {
        const record = await insertAppetite(trx, enterpriseId, {
          ...scope,
          risk_level: DEFAULT_APPETITE.risk_level,
          threshold_value: DEFAULT_APPETITE.threshold_value,
          description: DEFAULT_APPETITE.description,
          updated_by: actorId,
        });
        await insertAppetiteHistory(trx, enterpriseId, {
          ...scope,
          riskAppetiteId: record.id,
          previous: null,
          next: { level: record.risk_level, threshold: record.threshold_value },
          changedBy: actorId,
          reason: DEFAULT_APPETITE.reason,
        });
        return record;
      });
    },
  };
}

export type RiskAppetiteService = ReturnType<typeof createRiskAppetiteService>;
