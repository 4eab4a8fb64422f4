import { NO_TERMS } from '../../platform/versions/change-terms.js';
import { utcToday } from '../../modules/actions/overdue.js';
import type { ActionPriority, ActionStatus } from '../../platform/db/tables/actions.js';
import type { Caller } from '../../platform/auth/principal.js';
import { callerFor, need, type DemoContext, type DemoStep, clientAdminOf } from '../demo-context.js';

interface DemoAction {
  action: string;
  owner: string;
  priority: ActionPriority;
  action_type: string;
  /** Days from the day the demo runs (negative: already past). */
  dueInDays: number;
  status: ActionStatus;
  archived?: boolean;
  /** A DemoPerson key; the client admin otherwise. */
  createdBy?: string;
  /** The demo BRA (by name) and, optionally, its scenario (by catalogue name) the action addresses. */
  bra?: string;
  scenario?: string;
}

/**
 * An action plan in every status, some overdue, one archived, one created by an assessor. Only two overdue
 * actions are high or critical, below the enterprise_health threshold (D9.5), so the demo enterprise raises
 * no alert. Some address a scenario of a demo BRA, one a BRA as a whole, the rest stand alone.
 */
const DEMO_ACTIONS: readonly DemoAction[] = [
  { action: 'Introduce dual authorisation for payments above GBP 50,000', owner: 'Payments Operations', priority: 'critical', action_type: 'Preventive', dueInDays: -12, status: 'in_progress', bra: 'Retail Banking fraud risk assessment FY2026', scenario: 'Payment fraud by impersonation' },
  { action: 'Clear the AML customer due-diligence remediation backlog', owner: 'Financial Crime Compliance', priority: 'high', action_type: 'Corrective', dueInDays: -5, status: 'created' },
  { action: 'Test core banking failover to the secondary data centre', owner: 'IT Resilience', priority: 'high', action_type: 'Detective', dueInDays: 21, status: 'in_progress' },
  { action: 'Refresh phishing-awareness training for all staff', owner: 'Information Security', priority: 'medium', action_type: 'Preventive', dueInDays: -30, status: 'completed', bra: 'Retail Banking fraud risk assessment FY2026', scenario: 'Cyber intrusion and data theft' },
  { action: 'Reconcile claims payments against the policy ledger every week', owner: 'Claims Operations', priority: 'medium', action_type: 'Detective', dueInDays: -2, status: 'in_progress' },
  { action: 'Document an exit plan for the cloud hosting provider', owner: 'Procurement', priority: 'low', action_type: 'Corrective', dueInDays: 45, status: 'created' },
  { action: 'Review trading limits after the desk reorganisation', owner: 'Treasury Risk', priority: 'high', action_type: 'Preventive', dueInDays: 0, status: 'created', bra: 'Treasury operations BRA FY2026' },
  { action: 'Install flood barriers at the Leeds branch', owner: 'Facilities', priority: 'low', action_type: 'Preventive', dueInDays: -60, status: 'completed', archived: true },
  { action: 'Map key-person dependencies in retail lending', owner: 'Marcus Reid', priority: 'medium', action_type: 'Detective', dueInDays: 14, status: 'created', createdBy: 'assessor_bank' },
];

function dueDate(days: number): string {
  const date = new Date(`${utcToday(new Date())}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return utcToday(date);
}

/** Mitigation actions (4.4) created, moved and archived through the actions service, as the demo's people. */
export const actionsStep: DemoStep = {
  title: 'Mitigation actions',
  async run(context: DemoContext) {
    const { clientAdmin, enterpriseId } = clientAdminOf(context);
    const actions = context.services.actions;
    const links = await braLinks(context, clientAdmin);
    let overdue = 0;
    for (const demo of DEMO_ACTIONS) {
      const author = demo.createdBy === undefined ? clientAdmin : personAsCaller(context, demo.createdBy, enterpriseId);
      const created = await actions.create(author, {
        action: demo.action,
        owner: demo.owner,
        priority: demo.priority,
        action_type: demo.action_type,
        due_date: dueDate(demo.dueInDays),
        ...(demo.bra === undefined ? {} : await links.resolve(demo.bra, demo.scenario)),
      }, NO_TERMS);
      if (demo.status !== 'created') await actions.update(author, created.id, { status: demo.status }, NO_TERMS);
      if (demo.archived === true) await actions.archive(author, created.id, NO_TERMS);
      else if (demo.status !== 'completed' && demo.dueInDays < 0) overdue += 1;
    }
    const linked = DEMO_ACTIONS.filter((demo) => demo.bra !== undefined).length;
    context.log(`  ${DEMO_ACTIONS.length} actions in every status, ${overdue} overdue, one archived, ${linked} linked to BRAs`);
  },
};

function personAsCaller(context: DemoContext, key: string, enterpriseId: string) {
  const { userId, person } = need(context.people.get(key), `demo person ${key}`);
  return callerFor({ userId, email: person.email, fullName: person.fullName }, person.role as 'assessor', enterpriseId);
}

/** The demo BRAs and their scenario links, read through the BRA service, to link actions by name. */
async function braLinks(context: DemoContext, clientAdmin: Caller) {
  const { bras } = context.services.bras;
  const page = await bras.list(clientAdmin, { page_size: 100 });
  return {
    async resolve(braName: string, scenarioName: string | undefined) {
      const bra = need(page.data.find((b) => b.name === braName), `demo BRA ${braName}`);
      if (scenarioName === undefined) return { bra_id: bra.id };
      const { data: detail } = await bras.get(clientAdmin, bra.id);
      const link = need(detail.scenarios.find((scenario) => scenario.name === scenarioName), `scenario ${scenarioName}`);
      return { bra_id: bra.id, bra_risk_scenario_id: link.id };
    },
  };
}
