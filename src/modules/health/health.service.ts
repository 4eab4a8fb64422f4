import type { Kysely } from 'kysely';
import type { Caller } from '../../platform/auth/principal.js';
import type { DB, Executor } from '../../platform/db/schema.js';
import { notFound } from '../../platform/errors/app-error.js';
import type { AlertInput } from '../../platform/monitoring/alert-raiser.js';
import { resolveClearedAlert } from '../../platform/monitoring/alert-resolver.js';
import { HEALTH_WEIGHTS, assessHealth, recovered, worsened, type HealthAssessment, type HealthSignalName, type HealthSignals } from './health-score.js';
import { countSignals, historySince, latestStatuses, recordDay, type EnterpriseSignals } from './health.repository.js';
import { requireHealthReader } from './health.policy.js';

/** The alert's cause: one open `enterprise_health` alert per enterprise about its health status (beside D9.5's). */
export const HEALTH_STATUS_CAUSE = 'health_status';
/** Days of history the health endpoint shows, today included. */
export const HISTORY_DAYS = 90;

const utcDay = (at: Date) => at.toISOString().slice(0, 10);
const daysBefore = (day: string, days: number) => utcDay(new Date(Date.parse(`${day}T00:00:00Z`) - days * 86_400_000));

const SIGNAL_DESCRIPTIONS: Record<HealthSignalName, string> = {
  overdue_urgent_actions: 'Mitigation actions of priority high or critical, overdue (D7.3), not archived',
  scenarios_above_appetite: 'Included scenarios of BRAs not cancelled whose residual score exceeds the applicable appetite',
  bras_past_period: 'BRAs still draft, in progress or under review a year after their start date',
  weak_sub_controls: 'Sub-controls untested or rated Not Effective, out of all sub-controls not archived',
  failed_sign_ins: 'Refused sign-ins on the enterprise’s accounts over the last 7 days',
};

function signalsOf(row: EnterpriseSignals): HealthSignals {
  const { enterprise_id: _id, ...signals } = row;
  return signals;
}

function presentSignals(signals: HealthSignals, assessment: HealthAssessment) {
  return (Object.keys(HEALTH_WEIGHTS) as HealthSignalName[]).map((name) => ({
    name,
    value: signals[name],
    out_of: name === 'weak_sub_controls' ? signals.sub_controls : null,
    penalty: assessment.penalties[name],
    max_penalty: HEALTH_WEIGHTS[name].max,
    description: SIGNAL_DESCRIPTIONS[name],
  }));
}

function healthAlert(enterpriseId: string, assessment: HealthAssessment): AlertInput {
  return {
    type: 'enterprise_health',
    // D9.5's typical severity for the type; a critical status is graver, and escalates an open at_risk alert.
    severity: assessment.status === 'critical' ? 'error' : 'warning',
    enterpriseId,
    cause: HEALTH_STATUS_CAUSE,
    title: assessment.status === 'critical' ? 'Enterprise health critical' : 'Enterprise health at risk',
    message: `Health score ${assessment.score} (${assessment.status}); its signals and trend are on the Enterprises screen (Health of this enterprise)`,
  };
}

export function createHealthService({ db }: { db: Executor }) {
  return {
    /** Score and status of each enterprise named, computed now in one statement (the enterprise list's page). */
    async scoresOf(enterpriseIds: readonly string[], now = new Date()): Promise<Map<string, HealthAssessment>> {
      const rows = await countSignals(db, utcDay(now), enterpriseIds);
      return new Map(rows.map((row) => [row.enterprise_id, assessHealth(signalsOf(row))]));
    },

    /** GET /admin/enterprises/{id}/health: the score now, its signals, and the daily history of the last 90 days. */
    async detail(caller: Caller, enterpriseId: string, now = new Date()) {
      requireHealthReader(caller);
      const today = utcDay(now);
      const [row] = await countSignals(db, today, [enterpriseId]);
      if (row === undefined) throw notFound('Enterprise');
      const signals = signalsOf(row);
      const assessment = assessHealth(signals);
      const history = await historySince(db, enterpriseId, daysBefore(today, HISTORY_DAYS - 1));
      return {
        enterprise_id: enterpriseId,
        score: assessment.score,
        status: assessment.status,
        computed_at: now,
        signals: presentSignals(signals, assessment),
        history: history.map((day) => ({ date: day.day, score: day.score, status: day.status })),
      };
    },

    /**
     * One round of the health job: assesses every enterprise, records today's row, resolves the health alert
     * of each enterprise back to healthy, and returns the alerts of those whose status worsened since the
     * last recorded one, for the monitor to raise (or escalate, at_risk → critical).
     */
    async assessAll(now = new Date()): Promise<AlertInput[]> {
      const root = db as Kysely<DB>;
      const today = utcDay(now);
      const rows = await countSignals(db, today, 'all');
      const previous = await latestStatuses(db);
      const records = rows.map((row) => {
        const signals = signalsOf(row);
        return { enterprise_id: row.enterprise_id, signals, ...pick(assessHealth(signals)) };
      });
      await recordDay(db, today, records);
      const alerts: AlertInput[] = [];
      for (const record of records) {
        const before = previous.get(record.enterprise_id);
        if (worsened(before, record.status)) alerts.push(healthAlert(record.enterprise_id, assessHealth(record.signals)));
        else if (recovered(before, record.status)) {
          await resolveClearedAlert(root, {
            type: 'enterprise_health',
            enterpriseId: record.enterprise_id,
            cause: HEALTH_STATUS_CAUSE,
            resolution: `Recovered: health score ${record.score} (healthy)`,
          });
        }
      }
      return alerts;
    },
  };
}

const pick = ({ score, status }: HealthAssessment) => ({ score, status });

export type HealthService = ReturnType<typeof createHealthService>;
