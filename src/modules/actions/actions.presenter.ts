import { isOverdue } from './overdue.js';
import type { ActionRow } from './actions.repository.js';
import type { ActionView } from './actions.schemas.js';

/** An action as the API shows it (2.4): is_overdue computed against `today`, the linked names nested. */
export function presentAction(row: ActionRow, today: string): ActionView {
  const { bra_name, risk_scenario_name, owner_user_name, ...action } = row;
  return {
    ...action,
    owner_user: action.owner_user_id === null ? null : { id: action.owner_user_id, full_name: owner_user_name ?? '' },
    is_overdue: isOverdue(row, today),
    bra: bra_name === null ? null : { name: bra_name },
    risk_scenario: risk_scenario_name === null ? null : { name: risk_scenario_name },
  };
}
