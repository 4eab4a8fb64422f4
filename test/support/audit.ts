import { expect } from 'vitest';
import type { TestContext } from './app.js';
import type { Seeding, TestUser } from './factories.js';

/** What a suite asks of the audit log; each field given narrows the match. */
export interface AuditFilter {
  userId?: string;
  entityId?: string;
  entityType?: string;
  action?: string;
}

/**
 * The matching entries in chain order. chain_seq counts within one trail, so the order is meaningful for
 * entries of one trail, which is what every suite asks for.
 */
export function auditEntries(ctx: Seeding, filter: AuditFilter) {
  let query = ctx.db.selectFrom('audit_log').selectAll();
  if (filter.userId !== undefined) query = query.where('user_id', '=', filter.userId);
  if (filter.entityId !== undefined) query = query.where('entity_id', '=', filter.entityId);
  if (filter.entityType !== undefined) query = query.where('entity_type', '=', filter.entityType);
  if (filter.action !== undefined) query = query.where('action_type', '=', filter.action);
  return query.orderBy('chain_seq').execute();
}

/**
 * How many entries one trail holds (an enterprise's, or the platform's for null), or the whole log for
 * undefined: a refused change must leave the count as it was.
 */
export async function countAuditEntries(ctx: Seeding, enterpriseId?: string | null): Promise<number> {
  let query = ctx.db.selectFrom('audit_log').select((eb) => eb.fn.countAll().as('n'));
  if (enterpriseId !== undefined) query = query.where('enterprise_id', enterpriseId === null ? 'is' : '=', enterpriseId);
  return Number((await query.executeTakeFirstOrThrow()).n);
}

/**
 * A refusal as D5 makes it: 403 FORBIDDEN, and the user's newest access_denied entry failed, in the user's
 * own trail (as all their denials are) and naming `operation` when given. Suites call it right after the
 * refused request, so the newest entry is that request's. Returns the entry for further checks.
 */
export async function expectAccessDenied(
  ctx: TestContext,
  user: Pick<TestUser, 'id' | 'enterpriseId'>,
  response: { statusCode: number; body: string; json(): any },
  operation?: string,
) {
  expect(response.statusCode, response.body).toBe(403);
  expect(response.json()).toMatchObject({ code: 'FORBIDDEN' });
  const denied = await auditEntries(ctx, { userId: user.id, action: 'access_denied' });
  expect(denied.map((row) => row.enterprise_id)).toEqual(denied.map(() => user.enterpriseId));
  const newest = denied.at(-1);
  expect(newest).toMatchObject({ status: 'failed' });
  if (operation !== undefined) expect(newest!.action_details['operation']).toBe(operation);
  return newest!;
}
