import type { Generated } from 'kysely';
import type { CreatedAt, UpdatedAt } from './enterprises.js';

export type ActionStatus = 'created' | 'in_progress' | 'completed';
export type ActionPriority = 'low' | 'medium' | 'high' | 'critical';

/** A mitigation action (interface 2.4); `is_overdue` is computed at read time, never stored. */
export interface MitigationActionsTable {
  id: Generated<string>;
  enterprise_id: string;
  action: string;
  owner: string;
  status: Generated<ActionStatus>;
  priority: ActionPriority;
  action_type: string;
  /** 'YYYY-MM-DD' on both engines. */
  due_date: string;
  bra_id: string | null;
  bra_risk_scenario_id: string | null;
  /** The member it is assigned to (beside the free-text owner): told when it is given to them, reminded of its due date. */
  owner_user_id: string | null;
  archived: Generated<boolean>;
  archived_at: Date | null;
  archived_by: string | null;
  created_by: string | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  /** One more at every change of the row (a trigger; for a BRA also of its scenarios, ratings and control links): the ETag's version. */
  row_version: Generated<number>;
}

export interface ActionsTables {
  mitigation_actions: MitigationActionsTable;
}
