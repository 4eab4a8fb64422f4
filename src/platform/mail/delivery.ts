import type { FastifyBaseLogger } from 'fastify';
import type { Executor } from '../db/schema.js';
import type { Mailer, MailMessage } from './mailer.js';
import { claimDueMail, markMailDropped, markMailFailed, markMailSent, retryDelayMs, type OutboxRow } from './outbox.js';

/**
 * Turns an outbox row into the message to send, at send time; null: the mail has become pointless (its
 * link was replaced or used) and is dropped. Supplied by whoever enqueues mail (the identity provider's
 * invitation and recovery mails), so that this area knows nothing of what the messages say.
 */
export type PrepareMail = (row: OutboxRow) => Promise<Omit<MailMessage, 'messageId' | 'to'> | { dropped: string }>;

/** The templates a module renders (AppModule.mail), by the outbox's `template` name. */
export type MailTemplates = Readonly<Record<string, PrepareMail>>;

/**
 * The outbox's one `prepare`: each row to the preparer of its template (the modules' own, composed by the
 * app); a row of a template nobody renders any more is dropped, never retried.
 */
export function dispatchByTemplate(templates: MailTemplates): PrepareMail {
  return async (row) => {
    const prepare = templates[row.template];
    return prepare === undefined ? { dropped: `unknown mail template ${row.template}` } : prepare(row);
  };
}

export interface MailDelivery {
  /** One round now: every due row, sent or rescheduled. `now` later than the clock also takes rows still in backoff. */
  deliverDue(now?: Date): Promise<{ sent: number; failed: number; dropped: number }>;
  /** After a commit that enqueued mail: a round soon, off the request (the caller's answer never waits for SMTP). */
  wake(): void;
  /** Resolves once a round started by wake() has ended (the app waits for it before closing). */
  settle(): Promise<void>;
  readonly destination: string;
}

const ROUND_SIZE = 20;
/** How often a process that runs jobs looks for mail due again (a retry after backoff, a wake that was lost). */
export const MAIL_RETRY_EVERY_MS = 15_000;

export function createMailDelivery(deps: {
  db: Executor;
  mailer: Mailer;
  prepare: PrepareMail;
  log: Pick<FastifyBaseLogger, 'warn' | 'error'>;
  /** The domain of Message-IDs (the public host). */
  domain: string;
}): MailDelivery {
  const { db, mailer, prepare, log } = deps;
  let running: Promise<unknown> | null = null;
  let again = false;

  async function deliverOne(row: OutboxRow, now: Date): Promise<'sent' | 'failed' | 'dropped'> {
    try {
      const prepared = await prepare(row);
      if ('dropped' in prepared) {
        await markMailDropped(db, row.id, now, prepared.dropped);
        return 'dropped';
      }
      await mailer.send({ messageId: `${row.id}@${deps.domain}`, to: row.recipient, ...prepared });
      await markMailSent(db, row.id, new Date());
      return 'sent';
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      log.warn({ mail_id: row.id, attempts: row.attempts, err: reason }, 'mail not sent: will retry');
      await markMailFailed(db, row.id, new Date(Date.now() + retryDelayMs(row.attempts)), reason);
      return 'failed';
    }
  }

  async function deliverDue(now = new Date()) {
    const counts = { sent: 0, failed: 0, dropped: 0 };
    for (;;) {
      const rows = await claimDueMail(db, now, ROUND_SIZE);
      for (const row of rows) counts[await deliverOne(row, now)] += 1;
      if (rows.length < ROUND_SIZE) return counts;
    }
  }

  function wake(): void {
    if (running !== null) {
      again = true;
      return;
    }
    running = deliverDue()
      .catch((error: unknown) => log.error({ err: error }, 'mail delivery round failed'))
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          wake();
        }
      });
  }

  return {
    deliverDue,
    wake,
    settle: async () => {
      while (running !== null) await running;
    },
    destination: mailer.destination,
  };
}
