import type { TotalEffectiveness } from '../../../platform/db/tables/controls.js';
import { EFFECTIVENESS_LABELS } from '../../controls/effectiveness-matrix.js';

/**
 * A scenario's control effectiveness: the weakest total effectiveness among the controls linked to it,
 * because a risk is only as well mitigated as its weakest assessed control. Unassessed controls (null) are
 * left out; null when none is assessed. Pure: the get-BRA, the register and the report share it.
 */
export function weakestEffectiveness(labels: readonly (TotalEffectiveness | null)[]): TotalEffectiveness | null {
  let weakest = -1;
  for (const label of labels) {
    if (label === null) continue;
    weakest = Math.max(weakest, EFFECTIVENESS_LABELS.indexOf(label));
  }
  return weakest < 0 ? null : EFFECTIVENESS_LABELS[weakest]!;
}

/** Groups control links by the scenario link they mitigate (BRA-wide links, with a null scenario, are left out). */
export function controlsByScenario<C extends { bra_risk_scenario_id: string | null }>(controls: readonly C[]): Map<string, C[]> {
  const byScenario = new Map<string, C[]>();
  for (const control of controls) {
    if (control.bra_risk_scenario_id === null) continue;
    const list = byScenario.get(control.bra_risk_scenario_id) ?? [];
    list.push(control);
    byScenario.set(control.bra_risk_scenario_id, list);
  }
  return byScenario;
}
