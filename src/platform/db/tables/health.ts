import type { ColumnType } from 'kysely';
import type { CreatedAt } from './enterprises.js';

/** One enterprise's health on one UTC day (the day's latest assessment): written by modules/health. */
export interface EnterpriseHealthHistoryTable {
  enterprise_id: string;
  /** YYYY-MM-DD (UTC). */
  day: string;
  score: number;
  status: 'healthy' | 'at_risk' | 'critical';
  signals: ColumnType<Record<string, number>, string, string>;
  recorded_at: CreatedAt;
}

export interface HealthTables {
  enterprise_health_history: EnterpriseHealthHistoryTable;
}
