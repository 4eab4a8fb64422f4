import { Type } from 'typebox';
import { CalendarDate, DataResponse, IdParams, Nullable, Timestamp, Uuid, errorResponses } from '../../platform/http/schemas.js';
import { HEALTH_WEIGHTS, HEALTH_STATUSES } from './health-score.js';

export const HealthStatusSchema = (description = 'healthy (score 75 and above), at_risk (50 to 74) or critical (below 50)') =>
  Type.Enum(HEALTH_STATUSES, { description });
export const HealthScoreSchema = (description = 'Health score, 0 to 100 (docs/enterprise-health.md)') =>
  Type.Integer({ minimum: 0, maximum: 100, description });

const SIGNAL_NAMES = Object.keys(HEALTH_WEIGHTS) as (keyof typeof HEALTH_WEIGHTS)[];

export const HealthSignalView = Type.Object({
  name: Type.Enum(SIGNAL_NAMES, { description: 'The signal' }),
  value: Type.Integer({ description: 'Its count now' }),
  out_of: Nullable(Type.Integer({ description: 'For weak_sub_controls: the sub-controls not archived; null otherwise' })),
  penalty: Type.Number({ description: 'Points it takes off the score now' }),
  max_penalty: Type.Integer({ description: 'The most it can take' }),
  description: Type.String(),
});

export const EnterpriseHealthView = Type.Object({
  enterprise_id: Uuid(),
  score: HealthScoreSchema(),
  status: HealthStatusSchema(),
  computed_at: Timestamp('When the score was computed (now)'),
  signals: Type.Array(HealthSignalView, { description: 'Every signal with its weight in the score' }),
  history: Type.Array(
    Type.Object({ date: CalendarDate('UTC day'), score: HealthScoreSchema(), status: HealthStatusSchema() }),
    { description: 'The last assessment of each day over the last 90 days, oldest first (days before the first assessment are absent)' },
  ),
});

export const enterpriseHealthSchema = {
  summary: 'Health of an enterprise',
  description:
    'Super admin only. The health score (0 to 100) and status computed now from weighted signals, and the daily history of the ' +
    'last 90 days. The `enterprise_health` alert with cause health_status is raised when the status worsens and resolved when it recovers.',
  operationId: 'admin.enterprises.health',
  tags: ['admin'],
  params: IdParams('enterprise_id'),
  response: { 200: DataResponse(EnterpriseHealthView), ...errorResponses([404]) },
};
