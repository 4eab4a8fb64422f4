import type { Transaction } from 'kysely';
import type { Caller } from '../auth/principal.js';
import type { DB } from '../db/schema.js';
import { auditFrom, type AuditAction, type AuditEntityType } from './audit-events.js';
import { writeAudit } from './audit-writer.js';

/** A change as its audit entry names it: what was done, to which record, with what details. */
export interface ChangeRecord {
  action: AuditAction;
  entityType: AuditEntityType;
  entityId: string;
  details: Record<string, unknown>;
  /** The chain the entry joins: the caller's enterprise unless given (null: the platform trail). */
  enterpriseId?: string | null;
}

/** The audit entry of a caller's change, in the change's transaction (the one writer: audit-writer.ts). */
export async function recordChange(trx: Transaction<DB>, caller: Caller, change: ChangeRecord): Promise<string> {
  return writeAudit(trx, {
    enterpriseId: change.enterpriseId === undefined ? caller.enterpriseId : change.enterpriseId,
    ...auditFrom(caller),
    action: change.action,
    entityType: change.entityType,
    entityId: change.entityId,
    details: change.details,
  });
}
