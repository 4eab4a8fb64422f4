import type { BraDetailView, ControlView } from '../bras.schemas.js';

/**
 * What changed between two states of a BRA's content (a snapshot, or the live content built as a snapshot is).
 * Pure. Scenarios are matched by their catalogue scenario (`risk_scenario_id`), never by their link id, so two
 * BRAs can be compared: a roll-forward against the approval snapshot of the BRA it started from. Control
 * links are matched by (catalogue scenario or BRA-wide, sub-control). Every list has a fixed order (scenario
 * name, then ids; inherent before residual; BRA-wide controls first), so the same inputs give the same JSON.
 * Identical inputs give the empty diff (`isEmptyDiff`).
 */

export type Level = 'Low' | 'Medium' | 'High' | 'Very High';

export interface DiffSide {
  content: Pick<BraDetailView, 'scenarios' | 'controls' | 'summary'>;
  methodology: {
    risk_bands: { level: Level; min: number; max: number }[];
    appetite: { risk_level: Level; threshold_value: number } | null;
  };
}

export interface Score {
  impact_score: number;
  likelihood_score: number;
  risk_score: number;
  risk_level: Level;
}

export interface ScenarioRef {
  risk_scenario_id: string;
  name: string;
  category: string;
}

export interface ScenarioEntry extends ScenarioRef {
  included: boolean;
  inherent_rating: Score | null;
  residual_rating: Score | null;
}

export interface RatingChange extends ScenarioRef {
  rating_type: 'inherent' | 'residual';
  from: Score | null;
  to: Score | null;
}

export interface ControlRef {
  /** The catalogue scenario of the link; null for a BRA-wide link. */
  risk_scenario_id: string | null;
  scenario_name: string | null;
  key_control_id: string;
  key_control_name: string;
  sub_control_id: string;
  sub_control_name: string;
}

export interface ControlResults {
  tod: string | null;
  toe: string | null;
  total_effectiveness: string | null;
}

export type ControlEntry = ControlRef & ControlResults;

export interface EffectivenessChange extends ControlRef {
  from: ControlResults;
  to: ControlResults;
}

export const SUMMARY_FIELDS = ['total_scenarios', 'assessed_scenarios', 'risks_above_appetite', 'completion_percentage'] as const;
export type SummaryField = (typeof SUMMARY_FIELDS)[number];

export interface SummaryDelta {
  field: SummaryField;
  from: number;
  to: number;
  delta: number;
}

export interface AppetiteRef {
  risk_level: Level;
  threshold_value: number;
}

export interface BraDiff {
  scenarios: { added: ScenarioEntry[]; removed: ScenarioEntry[]; included: ScenarioRef[]; excluded: ScenarioRef[] };
  ratings: RatingChange[];
  controls: { added: ControlEntry[]; removed: ControlEntry[]; effectiveness_changed: EffectivenessChange[] };
  summary: SummaryDelta[];
  methodology: {
    risk_bands: { from: DiffSide['methodology']['risk_bands']; to: DiffSide['methodology']['risk_bands'] } | null;
    appetite: { from: AppetiteRef | null; to: AppetiteRef | null } | null;
  };
}

type Scenario = DiffSide['content']['scenarios'][number];
type StoredRating = Scenario['inherent_rating'];

const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const byScenario = (a: ScenarioRef, b: ScenarioRef): number => compareText(a.name, b.name) || compareText(a.risk_scenario_id, b.risk_scenario_id);

function byControl(a: ControlRef, b: ControlRef): number {
  if (a.risk_scenario_id === null || b.risk_scenario_id === null) {
    if (a.risk_scenario_id !== b.risk_scenario_id) return a.risk_scenario_id === null ? -1 : 1;
  } else {
    const scenario = compareText(a.scenario_name ?? '', b.scenario_name ?? '') || compareText(a.risk_scenario_id, b.risk_scenario_id);
    if (scenario !== 0) return scenario;
  }
  return (
    compareText(a.key_control_name, b.key_control_name) ||
    compareText(a.sub_control_name, b.sub_control_name) ||
    compareText(a.sub_control_id, b.sub_control_id)
  );
}

const score = (rating: StoredRating): Score | null =>
  rating === null
    ? null
    : { impact_score: rating.impact_score, likelihood_score: rating.likelihood_score, risk_score: rating.risk_score, risk_level: rating.risk_level };

const sameScore = (a: Score | null, b: Score | null): boolean =>
  a === null || b === null ? a === b : a.impact_score === b.impact_score && a.likelihood_score === b.likelihood_score && a.risk_level === b.risk_level;

const ref = (s: Scenario): ScenarioRef => ({ risk_scenario_id: s.risk_scenario_id, name: s.name, category: s.category });
const entry = (s: Scenario): ScenarioEntry => ({ ...ref(s), included: s.included, inherent_rating: score(s.inherent_rating), residual_rating: score(s.residual_rating) });

function controlEntries(content: DiffSide['content']): Map<string, ControlEntry> {
  const scenarios = new Map(content.scenarios.map((s) => [s.id, s]));
  const entries = new Map<string, ControlEntry>();
  for (const control of content.controls as ControlView[]) {
    const scenario = control.bra_risk_scenario_id === null ? undefined : scenarios.get(control.bra_risk_scenario_id);
    const value: ControlEntry = {
      risk_scenario_id: scenario?.risk_scenario_id ?? null,
      scenario_name: scenario?.name ?? null,
      key_control_id: control.key_control_id,
      key_control_name: control.key_control_name,
      sub_control_id: control.sub_control_id,
      sub_control_name: control.sub_control_name,
      tod: control.tod,
      toe: control.toe,
      total_effectiveness: control.total_effectiveness,
    };
    entries.set(`${value.risk_scenario_id ?? '-'}/${value.sub_control_id}`, value);
  }
  return entries;
}

const results = (c: ControlEntry): ControlResults => ({ tod: c.tod, toe: c.toe, total_effectiveness: c.total_effectiveness });
const controlRef = ({ tod: _t, toe: _e, total_effectiveness: _x, ...rest }: ControlEntry): ControlRef => rest;

function diffControls(from: DiffSide['content'], to: DiffSide['content']): BraDiff['controls'] {
  const before = controlEntries(from);
  const after = controlEntries(to);
  const added = [...after].filter(([key]) => !before.has(key)).map(([, c]) => c);
  const removed = [...before].filter(([key]) => !after.has(key)).map(([, c]) => c);
  const effectiveness_changed: EffectivenessChange[] = [];
  for (const [key, old] of before) {
    const now = after.get(key);
    if (now === undefined) continue;
    if (old.tod !== now.tod || old.toe !== now.toe || old.total_effectiveness !== now.total_effectiveness) {
      effectiveness_changed.push({ ...controlRef(now), from: results(old), to: results(now) });
    }
  }
  return { added: added.sort(byControl), removed: removed.sort(byControl), effectiveness_changed: effectiveness_changed.sort(byControl) };
}

function diffMethodology(from: DiffSide['methodology'], to: DiffSide['methodology']): BraDiff['methodology'] {
  const bands = (m: DiffSide['methodology']) => JSON.stringify(m.risk_bands.map((b) => [b.level, b.min, b.max]));
  const appetite = (m: DiffSide['methodology']): AppetiteRef | null =>
    m.appetite === null ? null : { risk_level: m.appetite.risk_level, threshold_value: m.appetite.threshold_value };
  const [a, b] = [appetite(from), appetite(to)];
  const appetiteChanged = a === null || b === null ? a !== b : a.risk_level !== b.risk_level || a.threshold_value !== b.threshold_value;
  return {
    risk_bands: bands(from) === bands(to) ? null : { from: from.risk_bands, to: to.risk_bands },
    appetite: appetiteChanged ? { from: a, to: b } : null,
  };
}

export function diffBra(from: DiffSide, to: DiffSide): BraDiff {
  const before = new Map(from.content.scenarios.map((s) => [s.risk_scenario_id, s]));
  const after = new Map(to.content.scenarios.map((s) => [s.risk_scenario_id, s]));
  const added = to.content.scenarios.filter((s) => !before.has(s.risk_scenario_id)).map(entry);
  const removed = from.content.scenarios.filter((s) => !after.has(s.risk_scenario_id)).map(entry);
  const included: ScenarioRef[] = [];
  const excluded: ScenarioRef[] = [];
  const ratings: RatingChange[] = [];
  for (const now of to.content.scenarios) {
    const old = before.get(now.risk_scenario_id);
    if (old === undefined) continue;
    if (old.included !== now.included) (now.included ? included : excluded).push(ref(now));
    for (const type of ['inherent', 'residual'] as const) {
      const [a, b] = [score(old[`${type}_rating`]), score(now[`${type}_rating`])];
      if (!sameScore(a, b)) ratings.push({ ...ref(now), rating_type: type, from: a, to: b });
    }
  }
  ratings.sort((a, b) => byScenario(a, b) || compareText(a.rating_type, b.rating_type));
  const summary = SUMMARY_FIELDS.flatMap((field): SummaryDelta[] => {
    const [a, b] = [from.content.summary[field], to.content.summary[field]];
    return a === b ? [] : [{ field, from: a, to: b, delta: b - a }];
  });
  return {
    scenarios: { added: added.sort(byScenario), removed: removed.sort(byScenario), included: included.sort(byScenario), excluded: excluded.sort(byScenario) },
    ratings,
    controls: diffControls(from.content, to.content),
    summary,
    methodology: diffMethodology(from.methodology, to.methodology),
  };
}

/** No change of any kind: what a snapshot diffed with itself gives. */
export function isEmptyDiff(diff: BraDiff): boolean {
  const { scenarios, controls, methodology } = diff;
  return (
    Object.values(scenarios).every((list) => list.length === 0) &&
    diff.ratings.length === 0 &&
    Object.values(controls).every((list) => list.length === 0) &&
    diff.summary.length === 0 &&
    methodology.risk_bands === null &&
    methodology.appetite === null
  );
}
