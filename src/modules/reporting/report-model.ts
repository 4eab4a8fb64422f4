import type { ReportSource } from '../bras/history/snapshots.service.js';
import { aboveAppetite } from '../bras/answer/appetite-flags.js';
import { SCORE_LEVELS } from './risk-heat-map.js';

/**
 * The BRA report as data, before any layout: what the PDF and the XLSX both draw. Built from the report
 * source alone (for an approved BRA its approval snapshot, whose methodology pins the appetite), plus the
 * names that identify people and the enterprise. Pure: the same source gives the same model.
 */
export interface ReportPeople {
  enterpriseName: string;
  approverName: string | null;
}

type Content = ReportSource['content'];
type Scenario = Content['scenarios'][number];
type Rating = NonNullable<Scenario['inherent_rating']>;

export interface ReportScenario {
  name: string;
  category: string;
  included: boolean;
  inherent: Rating | null;
  residual: Rating | null;
  above_appetite: boolean;
  /** "accepted until <date> by <name>" while an acceptance was in force (issue 48); null otherwise. */
  acceptance: string | null;
  control_effectiveness: string | null;
  controls: Scenario['controls'];
}

/** A risk acceptance in force, as the report lists it. */
export interface ReportAcceptance {
  scenario: string;
  expires_on: string;
  accepted_by: string;
  accepted_on: string;
  rationale: string;
  conditions: string | null;
}

/** An evidence file the report covers: what it is attached to, its name and hash. */
export interface ReportEvidence {
  attached_to: string;
  name: string;
  media_type: string;
  size_bytes: number;
  sha256: string;
}

export interface ReportModel {
  draft: boolean;
  title: string;
  cover: Array<[label: string, value: string]>;
  /** Footer of every page (the page number is added by the layout). */
  footer: string;
  summary: Array<[label: string, value: string]>;
  above_appetite: string[];
  /** Counts per cell, indexed [impact - 1][likelihood - 1], of the included scenarios' ratings. */
  heat_maps: { inherent: number[][]; residual: number[][] };
  threshold: number;
  scenarios: ReportScenario[];
  bra_wide_controls: Content['controls'];
  actions: Array<ReportSource['actions'][number] & { scenario: string | null }>;
  acceptances: ReportAcceptance[];
  evidence: ReportEvidence[];
  final_comment: string | null;
}

const day = (value: Date | string | null) => (value === null ? '—' : new Date(value).toISOString().slice(0, 10));

function heatMap(scenarios: ReportScenario[], kind: 'inherent' | 'residual'): number[][] {
  const grid = SCORE_LEVELS.map(() => SCORE_LEVELS.map(() => 0));
  for (const scenario of scenarios) {
    const rating = scenario[kind];
    if (scenario.included && rating !== null) grid[rating.impact_score - 1]![rating.likelihood_score - 1]! += 1;
  }
  return grid;
}

export function buildReportModel(source: ReportSource, people: ReportPeople): ReportModel {
  const { content, methodology } = source;
  const threshold = methodology.appetite.threshold_value;
  const draft = source.basis === 'live';
  const scenarios: ReportScenario[] = content.scenarios.map((s) => ({
    name: s.name,
    category: s.category,
    included: s.included,
    inherent: s.inherent_rating,
    residual: s.residual_rating,
    above_appetite: aboveAppetite(s, threshold) === true,
    acceptance: s.acceptance == null ? null : `accepted until ${s.acceptance.expires_on} by ${s.acceptance.accepted_by_user.full_name}`,
    control_effectiveness: s.control_effectiveness,
    controls: s.controls,
  }));
  const scenarioName = new Map(content.scenarios.map((s) => [s.id, s.name]));
  const actionName = new Map(source.actions.map((a) => [a.id, a.action]));
  const attachedTo = (file: NonNullable<Content['evidence']>[number]) =>
    file.record_type === 'bra'
      ? 'The BRA'
      : file.record_type === 'bra_scenario'
        ? `Scenario: ${scenarioName.get(file.record_id) ?? file.record_id}`
        : `Action: ${actionName.get(file.record_id) ?? file.record_id}`;
  const basis = draft
    ? `DRAFT (${content.status.replace('_', ' ')}) - live data read ${source.as_of.toISOString()}, no approval snapshot`
    : `Approval snapshot ${source.snapshot_id}`;
  return {
    draft,
    title: content.name,
    cover: [
      ['Enterprise', people.enterpriseName],
      ['Legal entity', content.legal_entity.name],
      ['Business unit', content.business_unit?.name ?? '—'],
      ['Period', content.period],
      ['Status', content.status.replace('_', ' ')],
      ['Assessor', content.assessor],
      ['Approved by', people.approverName ?? '—'],
      ['Approved on', day(content.approved_at)],
      ['Snapshot', source.snapshot_id ?? 'none (live data)'],
    ],
    footer: `${content.name} · ${basis}`,
    summary: [
      ['Scenarios included', String(content.summary.total_scenarios)],
      ['Scenarios assessed', String(content.summary.assessed_scenarios)],
      ['Completion', `${content.summary.completion_percentage}%`],
      ['Risks above appetite', String(content.summary.risks_above_appetite)],
      ['Of those, accepted', String(scenarios.filter((s) => s.above_appetite && s.acceptance !== null).length)],
      ['Appetite threshold', `${threshold} (${methodology.appetite.risk_level})`],
      ['Controls linked', String(content.controls.length)],
      ['Mitigation actions', String(source.actions.length)],
    ],
    above_appetite: scenarios.filter((s) => s.above_appetite).map((s) => s.name),
    heat_maps: { inherent: heatMap(scenarios, 'inherent'), residual: heatMap(scenarios, 'residual') },
    threshold,
    scenarios,
    bra_wide_controls: content.controls.filter((c) => c.bra_risk_scenario_id === null),
    actions: source.actions.map((a) => ({ ...a, scenario: a.bra_risk_scenario_id === null ? null : (scenarioName.get(a.bra_risk_scenario_id) ?? null) })),
    acceptances: content.scenarios.flatMap((s) =>
      s.acceptance == null
        ? []
        : [
            {
              scenario: s.name,
              expires_on: s.acceptance.expires_on,
              accepted_by: s.acceptance.accepted_by_user.full_name,
              accepted_on: day(s.acceptance.accepted_at),
              rationale: s.acceptance.rationale,
              conditions: s.acceptance.conditions,
            },
          ],
    ),
    evidence: (content.evidence ?? []).map((file) => ({ attached_to: attachedTo(file), name: file.name, media_type: file.media_type, size_bytes: file.size_bytes, sha256: file.sha256 })),
    final_comment: content.final_comment,
  };
}

/** A rating as the report prints it: "15 High (5×3)". */
export const ratingText = (rating: Rating | null) =>
  rating === null ? 'not rated' : `${rating.risk_score} ${rating.risk_level} (${rating.impact_score}×${rating.likelihood_score})`;

/** The band colour of a score (D6.1), for the heat maps. */
export function bandColour(score: number): string {
  if (score >= 16) return '#C0392B';
  if (score >= 10) return '#E67E22';
  if (score >= 5) return '#F4D03F';
  return '#58D68D';
}
