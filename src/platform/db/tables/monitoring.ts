import type { Generated } from 'kysely';
import type { CreatedAt, UpdatedAt } from './enterprises.js';

export type AlertType = 'enterprise_health' | 'authentication' | 'performance' | 'database' | 'system';
export type AlertSeverity = 'info' | 'warning' | 'error' | 'critical';
export type AlertStatus = 'open' | 'acknowledged' | 'resolved';

export interface SystemAlertsTable {
  id: Generated<string>;
  type: AlertType;
  severity: AlertSeverity;
  title: string;
  message: string;
  enterprise_id: string | null;
  cause: string;
  /** SHA-256 (hex) of `cause`: the fixed-size key of the one-unresolved-alert index. */
  cause_key: string;
  status: Generated<AlertStatus>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  acknowledged_at: Date | null;
  acknowledged_by: string | null;
  notes: string | null;
  resolved_at: Date | null;
  resolved_by: string | null;
  resolution: string | null;
  /** One more at every change of the row (a trigger; for a BRA also of its scenarios, ratings and control links): the ETag's version. */
  row_version: Generated<number>;
}

/** Raised by the platform's monitor (platform/monitoring), acknowledged and resolved through it by the alerts module. */
export interface MonitoringTables {
  system_alerts: SystemAlertsTable;
}
