import { NO_TERMS } from '../../platform/versions/change-terms.js';
import type { Caller } from '../../platform/auth/principal.js';
import { need, personCaller, type DemoContext, type DemoStep, clientAdminOf } from '../demo-context.js';
import { DEMO_ENTERPRISE } from '../demo-data.js';

type Scores = [impact: number, likelihood: number];

/** A scenario of a demo BRA: its catalogue name and the ratings recorded so far (none, inherent, both). */
interface DemoScenario {
  scenario: string;
  included?: boolean;
  inherent?: Scores;
  residual?: Scores;
}

interface DemoBra {
  name: string;
  description: string;
  legalEntity: string;
  businessUnit?: string;
  /** DemoPerson.key of the assessor who creates it. */
  createdBy: string;
  period: string;
  startDate: string;
  scenarios: DemoScenario[];
  /**
   * Sub-controls of the demo control library (by name) the BRA relies on, each linked to the scenario it
   * mitigates (by catalogue name) or, without one, to the whole BRA.
   */
  controls?: { subControl: string; scenario?: string }[];
  /** Where the demo leaves it. */
  outcome: 'draft' | 'in_progress' | 'under_review' | 'approved' | 'cancelled';
  closing?: string;
}

/** A realistic workspace: one BRA in every state, with scenarios and ratings where the state implies them. */
export const DEMO_BRAS: readonly DemoBra[] = [
  {
    name: 'Retail Banking fraud risk assessment FY2026',
    description: 'Fraud exposure of the retail current-account and card business.',
    legalEntity: 'Harbourview Bank plc',
    businessUnit: 'Retail Banking',
    createdBy: 'assessor_bank',
    period: 'FY2026',
    startDate: '2026-01-12',
    scenarios: [
      { scenario: 'Payment fraud by impersonation', inherent: [5, 4], residual: [3, 3] },
      { scenario: 'Cheque and card forgery', inherent: [3, 4], residual: [2, 2] },
      { scenario: 'Cyber intrusion and data theft', inherent: [5, 3], residual: [4, 3] },
      { scenario: 'Employee embezzlement', included: false },
    ],
    controls: [
      { subControl: 'Dual approval of payments above £10,000', scenario: 'Payment fraud by impersonation' },
      { subControl: 'Call-back on changed supplier bank details', scenario: 'Payment fraud by impersonation' },
      { subControl: 'Privileged access monitoring', scenario: 'Cyber intrusion and data theft' },
      { subControl: 'Dual approval of payments above £10,000', scenario: 'Cheque and card forgery' },
    ],
    outcome: 'approved',
    closing: 'Residual impersonation risk accepted; card forgery controls to be retested in Q3.',
  },
  {
    name: 'Commercial Lending credit process BRA FY2026',
    description: 'Origination and approval of commercial loans.',
    legalEntity: 'Harbourview Bank plc',
    businessUnit: 'Commercial Lending',
    createdBy: 'assessor_bank',
    period: 'FY2026',
    startDate: '2026-02-02',
    scenarios: [
      { scenario: 'Insider collusion on credit approval', inherent: [4, 3], residual: [3, 2] },
      { scenario: 'Credit scoring model error', inherent: [4, 4], residual: [2, 3] },
    ],
    controls: [{ subControl: 'Quarterly user access review', scenario: 'Insider collusion on credit approval' }],
    outcome: 'under_review',
  },
  {
    name: 'Treasury operations BRA FY2026',
    description: 'Dealing, settlement and liquidity reporting.',
    legalEntity: 'Harbourview Bank plc',
    businessUnit: 'Treasury',
    createdBy: 'assessor_bank',
    period: 'FY2026',
    startDate: '2026-03-09',
    scenarios: [
      { scenario: 'Unauthorised trading', inherent: [5, 3], residual: [4, 2] },
      { scenario: 'Transaction input error', inherent: [3, 4] },
      { scenario: 'Missed regulatory reporting deadline' },
    ],
    controls: [
      { subControl: 'Maker-checker on regulatory returns', scenario: 'Missed regulatory reporting deadline' },
      { subControl: 'Reporting calendar with escalation', scenario: 'Missed regulatory reporting deadline' },
    ],
    outcome: 'in_progress',
  },
  {
    name: 'Claims Operations fraud BRA FY2026',
    description: 'Claims fraud, from first notification to settlement.',
    legalEntity: 'Harbourview Insurance Ltd',
    businessUnit: 'Claims Operations',
    createdBy: 'assessor_claims',
    period: 'FY2026',
    startDate: '2026-03-16',
    scenarios: [{ scenario: 'Inflated repair invoices in motor claims', inherent: [4, 4] }],
    controls: [
      { subControl: 'Fraud indicator screening', scenario: 'Inflated repair invoices in motor claims' },
      { subControl: 'Repair invoice benchmarking' },
    ],
    outcome: 'in_progress',
  },
  {
    name: 'Investment Operations BRA FY2026',
    description: 'Trade processing and fund administration for institutional mandates.',
    legalEntity: 'Harbourview Asset Management Ltd',
    businessUnit: 'Investment Operations',
    createdBy: 'assessor_claims',
    period: 'FY2026',
    startDate: '2026-04-01',
    scenarios: [],
    outcome: 'draft',
  },
  {
    name: 'Legacy payments platform BRA',
    description: 'Assessment of the payments platform retired in 2026.',
    legalEntity: 'Harbourview Bank plc',
    createdBy: 'assessor_bank',
    period: 'FY2025',
    startDate: '2025-10-01',
    scenarios: [],
    outcome: 'cancelled',
    closing: 'Platform decommissioned; its risks move to the Retail Banking assessment.',
  },
];

/** The assessor as the API would resolve them, with their entity assignments. */
export function assessorCaller(context: DemoContext, key: string, enterpriseId: string): Caller {
  return personCaller(context, key, enterpriseId, 'assessor');
}

/** "… has 6 BRAs: 1 draft, 2 in_progress, …": counted from the statuses the BRAs have, in the states' order. */
export function braCountNote(statuses: readonly string[]): string {
  const order = ['draft', 'in_progress', 'under_review', 'approved', 'cancelled'];
  const counts = order.map((status) => [status, statuses.filter((s) => s === status).length] as const).filter(([, n]) => n > 0);
  return `${DEMO_ENTERPRISE.name} has ${statuses.length} BRAs: ${counts.map(([status, n]) => `${n} ${status}`).join(', ')} (GET /api/v1/bras).`;
}

/** BRAs in every state, created and rated by the assessors, reviewed and closed by the client admin (D5). */
export const brasStep: DemoStep = {
  title: 'Business risk assessments in every state',
  async run(context: DemoContext) {
    const { clientAdmin, enterpriseId } = clientAdminOf(context);
    const { bras, content, transitions } = context.services.bras;
    const catalogue = await context.services['risk-scenarios'].list(clientAdmin, { page_size: 100 });
    const scenarioId = (name: string) => need(catalogue.data.find((s) => s.name === name), `catalogue scenario ${name}`).id;
    // The control library of the controls step, read through its service; links to absent ones are skipped.
    const library = (await context.services.controls.subControls.list(clientAdmin, {})).data;

    const statuses: string[] = [];
    for (const spec of DEMO_BRAS) {
      const assessor = assessorCaller(context, spec.createdBy, enterpriseId);
      const entity = need(context.legalEntities.get(spec.legalEntity), `legal entity ${spec.legalEntity}`);
      const bra = await bras.create(assessor, {
        name: spec.name,
        description: spec.description,
        legal_entity_id: entity.id,
        business_unit_id: spec.businessUnit === undefined ? null : need(entity.businessUnits.get(spec.businessUnit), spec.businessUnit),
        period: spec.period,
        assessor: assessor.fullName,
        start_date: spec.startDate,
      }, NO_TERMS);
      const linkOf = new Map<string, string>();
      for (const scenario of spec.scenarios) {
        const link = await content.addScenario(assessor, bra.id, { risk_scenario_id: scenarioId(scenario.scenario), included: scenario.included ?? true }, NO_TERMS);
        linkOf.set(scenario.scenario, link.id);
        for (const [type, scores] of [
          ['inherent', scenario.inherent],
          ['residual', scenario.residual],
        ] as const) {
          if (scores === undefined) continue;
          await content.recordRating(assessor, bra.id, { bra_risk_scenario_id: link.id, rating_type: type, impact_score: scores[0], likelihood_score: scores[1] }, NO_TERMS);
        }
      }
      for (const control of spec.controls ?? []) {
        const subControl = library.find((candidate) => candidate.name === control.subControl);
        const scenarioLink = control.scenario === undefined ? null : need(linkOf.get(control.scenario), `scenario ${control.scenario} of ${spec.name}`);
        if (subControl !== undefined) await content.linkControl(assessor, bra.id, { sub_control_id: subControl.id, bra_risk_scenario_id: scenarioLink }, NO_TERMS);
      }
      if (spec.outcome === 'under_review' || spec.outcome === 'approved') await transitions.submit(assessor, bra.id, NO_TERMS);
      if (spec.outcome === 'approved') await transitions.approve(clientAdmin, bra.id, { final_comment: spec.closing ?? null }, NO_TERMS);
      if (spec.outcome === 'cancelled') await transitions.cancel(clientAdmin, bra.id, { cancellation_reason: spec.closing ?? null }, NO_TERMS);
      const { data: made } = await bras.get(clientAdmin, bra.id);
      statuses.push(made.status);
      context.log(`  ${spec.name}: ${made.status}`);
    }
    context.notes.push(braCountNote(statuses));
  },
};
