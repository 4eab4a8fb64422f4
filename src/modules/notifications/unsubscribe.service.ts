import type { Kysely } from 'kysely';
import { writeAudit } from '../../platform/audit/audit-writer.js';
import type { RequestOrigin } from '../../platform/auth/principal.js';
import type { DB } from '../../platform/db/schema.js';
import { inTransaction } from '../../platform/db/transaction.js';
import { AppError } from '../../platform/errors/app-error.js';
import { isMemberOf, writeOwnPreferences } from './preferences.repository.js';
import { createUnsubscribeTokens } from './unsubscribe-token.js';

const invalidLink = () => new AppError('UNAUTHORIZED', 'This unsubscribe link is not valid');

/**
 * One-click unsubscribe (RFC 8058) from a notification mail's link, without signing in: the signed token is
 * the whole authority, and it can only turn the kinds it names off for the person it names. The change is
 * audited as the person's own (operation notifications.unsubscribe), in its transaction.
 */
export function createUnsubscribeService({ db }: { db: Kysely<DB> }) {
  const tokens = createUnsubscribeTokens(db);
  return {
    /** Refuses a token this service did not sign (401), before anything is shown or changed. */
    async check(token: string | undefined) {
      const claims = token === undefined ? null : await tokens.verify(token);
      if (claims === null) throw invalidLink();
      return claims;
    },

    async unsubscribe(token: string | undefined, origin: RequestOrigin) {
      const { enterpriseId, userId, kinds } = await this.check(token);
      if (!(await isMemberOf(db, enterpriseId, userId))) throw invalidLink();
      await inTransaction(db, async ({ trx }) => {
        await writeOwnPreferences(trx, enterpriseId, userId, kinds.map((kind) => ({ kind, delivery: 'off' as const })));
        await writeAudit(trx, {
          enterpriseId,
          actor: { userId, email: null, fullName: null },
          action: 'update',
          entityType: 'notification_preference',
          entityId: userId,
          details: { preferences: kinds.map((kind) => ({ kind, delivery: 'off' })), via: 'unsubscribe link' },
          operation: origin.operation,
          ip: origin.ip,
          userAgent: origin.userAgent,
        });
      });
      return { kind: kinds[0]!, delivery: 'off' as const, kinds };
    },
  };
}

export type UnsubscribeService = ReturnType<typeof createUnsubscribeService>;
