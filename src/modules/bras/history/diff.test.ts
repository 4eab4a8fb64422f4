import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diffBra, isEmptyDiff, type DiffSide } from './diff.js';
import { riskLevelOf, RISK_BANDS } from '../risk-rating.js';

const rating = fc
  .record({ impact_score: fc.integer({ min: 1, max: 5 }), likelihood_score: fc.integer({ min: 1, max: 5 }), justification: fc.option(fc.string()) })
  .map((r) => ({ ...r, risk_score: r.impact_score * r.likelihood_score, risk_level: riskLevelOf(r.impact_score * r.likelihood_score) }));
const effectiveness = fc.option(fc.constantFrom('Highly Effective', 'Effective', 'Not Effective'));

/** A BRA's content as a snapshot holds it: scenarios with distinct catalogue ids, control links on them or BRA-wide. */
const side: fc.Arbitrary<DiffSide> = fc
  .uniqueArray(fc.record({ risk_scenario_id: fc.uuid(), name: fc.string(), included: fc.boolean(), inherent: fc.option(rating), residual: fc.option(rating) }), {
    selector: (s) => s.risk_scenario_id,
    maxLength: 6,
  })
  .chain((scenarios) =>
    fc.record({
      scenarios: fc.constant(scenarios),
      controls: fc.uniqueArray(
        fc.record({
          on: fc.option(fc.integer({ min: 0, max: Math.max(0, scenarios.length - 1) })),
          sub_control_id: fc.uuid(),
          tod: fc.option(fc.constantFrom('A', 'B', 'E')),
          toe: fc.option(fc.constantFrom('1', '3', '5')),
          total_effectiveness: effectiveness,
        }),
        { selector: (c) => `${c.on}/${c.sub_control_id}`, maxLength: 6 },
      ),
      summary: fc.record({
        total_scenarios: fc.nat(9),
        assessed_scenarios: fc.nat(9),
        risks_above_appetite: fc.nat(9),
        completion_percentage: fc.nat(100),
        scenarios_above_appetite: fc.constant([] as DiffSide['content']['summary']['scenarios_above_appetite']),
      }),
      threshold: fc.option(fc.integer({ min: 1, max: 25 })),
    }),
  )
  .map(({ scenarios, controls, summary, threshold }) => ({
    content: {
      scenarios: scenarios.map((s, i) => ({
        id: `link-${i}`,
        risk_scenario_id: s.risk_scenario_id,
        name: s.name,
        category: 'Category',
        included: s.included,
        inherent_rating: s.inherent,
        residual_rating: s.residual,
        previous_residual_rating: null,
        applicable_threshold: null,
        above_appetite: null,
        controls: [],
        control_effectiveness: null,
      })),
      controls: controls.map((c, i) => ({
        id: `control-${i}`,
        bra_risk_scenario_id: c.on === null || scenarios.length === 0 ? null : `link-${c.on}`,
        key_control_id: 'kc',
        key_control_name: 'Key control',
        sub_control_id: c.sub_control_id,
        sub_control_name: `Sub ${i}`,
        tod: c.tod,
        toe: c.toe,
        total_effectiveness: c.total_effectiveness,
      })),
      summary,
    },
    methodology: {
      risk_bands: RISK_BANDS.map((b) => ({ ...b })),
      appetite: threshold === null ? null : { risk_level: 'High' as const, threshold_value: threshold },
    },
  }));

describe('the diff of two states of a BRA (pure)', () => {
  it('is empty for a state diffed with itself, and for an identical copy of it', () => {
    fc.assert(
      fc.property(side, (x) => {
        expect(isEmptyDiff(diffBra(x, x))).toBe(true);
        expect(isEmptyDiff(diffBra(x, structuredClone(x)))).toBe(true);
      }),
    );
  });

  it('is deterministic and its reverse swaps added and removed, included and excluded', () => {
    fc.assert(
      fc.property(side, side, (a, b) => {
        const forward = diffBra(a, b);
        const backward = diffBra(b, a);
        expect(JSON.stringify(diffBra(a, b))).toBe(JSON.stringify(forward));
        expect(backward.scenarios.added).toEqual(forward.scenarios.removed);
        expect(backward.scenarios.included).toEqual(forward.scenarios.excluded);
        expect(backward.controls.added.length).toBe(forward.controls.removed.length);
        expect(backward.ratings.length).toBe(forward.ratings.length);
        expect(isEmptyDiff(forward)).toBe(isEmptyDiff(backward));
      }),
    );
  });

  it('does not depend on the order of scenarios and controls in its inputs', () => {
    fc.assert(
      fc.property(side, side, (a, b) => {
        const shuffled = { ...b, content: { ...b.content, scenarios: [...b.content.scenarios].reverse(), controls: [...b.content.controls].reverse() } };
        expect(diffBra(a, shuffled)).toEqual(diffBra(a, b));
      }),
    );
  });

  const scenario = (id: string, name: string, residual: [number, number] | null, included = true) => ({
    id: `link-${id}`,
    risk_scenario_id: id,
    name,
    category: 'Cyber',
    included,
    inherent_rating: { impact_score: 4, likelihood_score: 4, risk_score: 16, risk_level: 'Very High' as const, justification: null },
    residual_rating:
      residual === null
        ? null
        : { impact_score: residual[0], likelihood_score: residual[1], risk_score: residual[0] * residual[1], risk_level: riskLevelOf(residual[0] * residual[1]), justification: 'why' },
    previous_residual_rating: null,
    applicable_threshold: null,
    above_appetite: null,
    controls: [],
    control_effectiveness: null,
  });
  const control = (id: string, link: string | null, total: string | null) => ({
    id: `c-${id}-${link}`,
    bra_risk_scenario_id: link,
    key_control_id: 'kc',
    key_control_name: 'Access',
    sub_control_id: id,
    sub_control_name: `Sub ${id}`,
    tod: total === null ? null : 'A',
    toe: total === null ? null : '1',
    total_effectiveness: total,
  });
  const summary = { total_scenarios: 2, assessed_scenarios: 2, risks_above_appetite: 1, completion_percentage: 100, scenarios_above_appetite: [] as DiffSide['content']['summary']['scenarios_above_appetite'] };
  const methodology = (threshold: number) => ({ risk_bands: RISK_BANDS.map((b) => ({ ...b })), appetite: { risk_level: 'High' as const, threshold_value: threshold } });

  it('names each kind of change, matching scenarios by catalogue id whatever their link ids', () => {
    const from: DiffSide = {
      content: {
        scenarios: [scenario('s1', 'Phishing', [3, 3]), scenario('s2', 'Outage', [2, 2]), scenario('s3', 'Fraud', [1, 1])],
        controls: [control('x', 'link-s1', 'Effective'), control('y', null, null), control('z', 'link-s3', null)],
        summary,
      },
      methodology: methodology(9),
    };
    const to: DiffSide = {
      content: {
        // Other link ids (another BRA): still matched by catalogue id.
        scenarios: [
          { ...scenario('s1', 'Phishing', [3, 4]), id: 'other-1' },
          { ...scenario('s2', 'Outage', [2, 2], false), id: 'other-2' },
          { ...scenario('s4', 'Insider', null), id: 'other-4' },
        ],
        controls: [{ ...control('x', 'other-1', 'Not Effective') }, control('w', null, 'Effective')],
        summary: { ...summary, risks_above_appetite: 2, completion_percentage: 67 },
      },
      methodology: methodology(12),
    };
    const diff = diffBra(from, to);
    expect(diff.scenarios.added.map((s) => s.risk_scenario_id)).toEqual(['s4']);
    expect(diff.scenarios.removed.map((s) => s.risk_scenario_id)).toEqual(['s3']);
    expect(diff.scenarios.excluded.map((s) => s.risk_scenario_id)).toEqual(['s2']);
    expect(diff.scenarios.included).toEqual([]);
    expect(diff.ratings).toEqual([
      {
        risk_scenario_id: 's1',
        name: 'Phishing',
        category: 'Cyber',
        rating_type: 'residual',
        from: { impact_score: 3, likelihood_score: 3, risk_score: 9, risk_level: 'Medium' },
        to: { impact_score: 3, likelihood_score: 4, risk_score: 12, risk_level: 'High' },
      },
    ]);
    expect(diff.controls.added.map((c) => [c.risk_scenario_id, c.sub_control_id])).toEqual([[null, 'w']]);
    expect(diff.controls.removed.map((c) => [c.risk_scenario_id, c.sub_control_id])).toEqual([
      [null, 'y'],
      ['s3', 'z'],
    ]);
    expect(diff.controls.effectiveness_changed).toHaveLength(1);
    expect(diff.controls.effectiveness_changed[0]).toMatchObject({ risk_scenario_id: 's1', from: { total_effectiveness: 'Effective' }, to: { total_effectiveness: 'Not Effective' } });
    expect(diff.summary).toEqual([
      { field: 'risks_above_appetite', from: 1, to: 2, delta: 1 },
      { field: 'completion_percentage', from: 100, to: 67, delta: -33 },
    ]);
    expect(diff.methodology).toEqual({ risk_bands: null, appetite: { from: { risk_level: 'High', threshold_value: 9 }, to: { risk_level: 'High', threshold_value: 12 } } });
    expect(isEmptyDiff(diff)).toBe(false);
  });

  it('ignores a changed justification: a rating change is a change of scores', () => {
    const from: DiffSide = { content: { scenarios: [scenario('s1', 'Phishing', [3, 3])], controls: [], summary }, methodology: methodology(9) };
    const to = structuredClone(from);
    to.content.scenarios[0]!.residual_rating!.justification = 'a new reason';
    expect(isEmptyDiff(diffBra(from, to))).toBe(true);
  });
});
