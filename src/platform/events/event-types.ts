/**
 * The events the service announces to the enterprise's other systems (webhooks). A module emits them
 * through the outbox (outbox.ts) inside the transaction of the change; the webhooks module delivers them.
 */
export const EVENT_TYPES = [
  'bra.created',
  'bra.status_changed',
  'bra.approved',
  'bra.cancelled',
  'risk.above_appetite',
  'risk.accepted',
  'risk.acceptance_expired',
  'mitigation_action.overdue',
  'mitigation_action.completed',
  'risk_appetite.changed',
  'webhook.test',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** An event as a module states it: its enterprise, its type, and ids and names of what changed. */
export interface DomainEvent {
  enterpriseId: string;
  type: EventType;
  data: Record<string, unknown>;
}

/**
 * The body every receiver gets (Standard Webhooks: `type`, `timestamp`, `data`). `data` always carries
 * the enterprise id, and only what the emitting module put there: ids and names of its own tenant.
 */
export function eventBody(event: DomainEvent, at: Date): string {
  return JSON.stringify({ type: event.type, timestamp: at.toISOString(), data: { enterprise_id: event.enterpriseId, ...event.data } });
}
