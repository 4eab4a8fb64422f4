import { NO_TERMS } from '../../platform/versions/change-terms.js';
import type { RiskLevel } from '../../platform/db/tables/governance.js';
import { need, type DemoContext, type DemoStep } from '../demo-context.js';

interface DemoOverride {
  legalEntity: string;
  businessUnit?: string;
  risk_level: RiskLevel;
  threshold_value: number;
  description: string;
  reason: string;
}

/**
 * Appetite overrides beside the enterprise default (Medium, 9): a cautious bank, a stricter treasury
 * desk, a tolerant claims unit. The treasury is set twice, so its history shows a change with a reason.
 */
const DEMO_OVERRIDES: readonly DemoOverride[] = [
  { legalEntity: 'Harbourview Bank plc', risk_level: 'Medium', threshold_value: 6, description: 'Prudential regulation: lower tolerance than the group.', reason: 'Board risk appetite statement 2026' },
  { legalEntity: 'Harbourview Bank plc', businessUnit: 'Treasury', risk_level: 'Medium', threshold_value: 5, description: 'Market exposure is hedged daily.', reason: 'Treasury mandate' },
  { legalEntity: 'Harbourview Bank plc', businessUnit: 'Treasury', risk_level: 'Low', threshold_value: 4, description: 'Market exposure is hedged daily; limits tightened.', reason: 'Limit breach in Q3 review' },
  { legalEntity: 'Harbourview Insurance Ltd', businessUnit: 'Claims Operations', risk_level: 'High', threshold_value: 12, description: 'Operational losses are priced into premiums.', reason: 'Underwriting committee' },
];

/** Risk appetite overrides and their history, set by the client admin through the governance service. */
export const governanceStep: DemoStep = {
  title: 'Risk appetite overrides',
  async run(context: DemoContext) {
    const clientAdmin = need(context.actors.clientAdmin, 'the client admin');
    const appetites = context.services.governance;
    for (const override of DEMO_OVERRIDES) {
      const entity = need(context.legalEntities.get(override.legalEntity), `the legal entity ${override.legalEntity}`);
      const unitId = override.businessUnit === undefined ? null : need(entity.businessUnits.get(override.businessUnit), `the unit ${override.businessUnit}`);
      const { data: { created } } = await appetites.upsert(clientAdmin, {
        risk_level: override.risk_level,
        threshold_value: override.threshold_value,
        description: override.description,
        legal_entity_id: entity.id,
        business_unit_id: unitId,
        reason: override.reason,
      }, NO_TERMS);
      const scope = override.businessUnit === undefined ? override.legalEntity : `${override.legalEntity} / ${override.businessUnit}`;
      context.log(`  ${scope}: ${override.risk_level}, ${override.threshold_value} (${created ? 'created' : 'updated'})`);
    }
  },
};
