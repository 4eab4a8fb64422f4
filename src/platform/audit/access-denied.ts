import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { originOf, type Principal } from '../auth/principal.js';
import type { DB } from '../db/schema.js';
import { inTransaction } from '../db/transaction.js';
import { auditFrom } from './audit-events.js';
import { writeAudit } from './audit-writer.js';

/**
 * D5: every refusal with 403 writes an `access_denied` entry (status `failed`). The error handler calls
 * this for any FORBIDDEN answered to a known caller, so no service has to remember it. The refused change
 * has rolled back by then: the entry gets a transaction of its own.
 */
export async function recordAccessDenied(
  db: Kysely<DB>,
  request: FastifyRequest,
  principal: Principal,
  reason: string,
): Promise<void> {
  await inTransaction(db, ({ trx }) =>
    writeAudit(trx, {
      enterpriseId: principal.enterpriseId,
      ...auditFrom({ ...principal, ...originOf(request) }),
      action: 'access_denied',
      entityType: null,
      entityId: null,
      details: {
        method: request.method,
        path: request.url.split('?')[0],
        reason,
      },
      status: 'failed',
    }),
  );
}
