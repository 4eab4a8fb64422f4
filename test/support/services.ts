import { pino } from 'pino';
import { afterAll } from 'vitest';
import type { Config } from '../../src/config.js';
import { linkExternalSubject } from '../../src/modules/identity/identity.service.js';
import { moduleServices, type ModuleServices } from '../../src/modules/index.js';
import type { Caller } from '../../src/platform/auth/principal.js';
import { createPrincipalResolver } from '../../src/platform/auth/principal-resolver.js';
import type { Database } from '../../src/platform/db/engine.js';
import { primaryOnly } from '../../src/platform/db/read-routing.js';
import type { Executor } from '../../src/platform/db/schema.js';
import { openRequestWork, type UnitOfWork } from '../../src/platform/db/transaction.js';
import type { MailDelivery } from '../../src/platform/mail/delivery.js';
import type { ServicePlatform } from '../../src/platform/module.js';
import { AppError } from '../../src/platform/errors/app-error.js';
import type { ChangeTerms } from '../../src/platform/versions/change-terms.js';
import { expectState, versionState } from '../../src/platform/versions/resource-state.js';
import { testConfig } from './app.js';
import { asRuntimeRole, freshDatabase } from './database.js';
import type { TestUser } from './factories.js';

/**
 * The service tier (test/service): the domain services called directly on a real database, no app and no
 * HTTP. The services are built as app.ts builds them for the routes (each module's `services(executor,
 * platform)`, bound to the database reached as the service's role reaches it), and a caller is what a route's
 * `callerOf(request)` makes: the principal resolved from the records (role, enterprise, entity assignments)
 * plus the request's origin. A change's terms are what `termsOf(request)` gives: an expectation (If-Match)
 * and, for a request with an Idempotency-Key, the unit of work the platform holds open (`inRequestWork`).
 */
export interface ServiceContext {
  /** The database as the service's role reaches it (what the services are bound to). */
  database: Database;
  /** The same database as its owner: what the factories seed and the suites inspect. */
  db: Database['db'];
  config: Config;
  /** Every module's services bound to the database, as the routes have them: `services.bras.rollForward`. */
  services: ModuleServices;
  /** Every module's services bound to `executor` (a transaction to join), as a module calls another's. */
  servicesOn(executor: Executor): ModuleServices;
  /** `user` as a route's handler sees them, for the route named `operation` (its audit entries name it). */
  callerOf(user: TestUser, operation?: string | null): Promise<Caller>;
  /**
   * A change inside a unit of work the caller holds, as an Idempotency-Key request's: committed when `fn`
   * returns, rolled back when it throws or when `rollback` is asked (the change must leave nothing then).
   */
  inRequestWork<T>(fn: (terms: ChangeTerms & { work: UnitOfWork }) => Promise<T>, options?: { rollback?: boolean }): Promise<T>;
  close(): Promise<void>;
}

/** The terms of a change sent with `If-Match: "<version>"` (a record whose state is its version alone). */
export const ifMatchVersion = (version: number): ChangeTerms => ({ expected: expectState(versionState(version)) });

/** The AppError a service call refuses with; fails when it succeeds or throws anything else. */
export async function refusalOf(call: Promise<unknown>): Promise<{ code: string; status: number; details: unknown }> {
  try {
    await call;
  } catch (error) {
    if (error instanceof AppError) return { code: error.code, status: error.status, details: error.details };
    throw error;
  }
  throw new Error('The service did not refuse');
}

/** The rollback `inRequestWork` was asked for, told apart from a failure of the change itself. */
class RolledBack extends Error {
  constructor(readonly value: unknown) {
    super('rolled back on request');
  }
}

/** A fresh database of the file's own and the services on it; closed after the file's tests. */
export async function createServiceContext(options: { env?: Record<string, string> } = {}): Promise<ServiceContext> {
  const config = testConfig(options.env);
  const owner = await freshDatabase();
  const database = await asRuntimeRole(owner);
  const principals = createPrincipalResolver(database.db, config.auth.mode, linkExternalSubject);
  // Mail is queued in the outbox by the services, in their transactions; nothing here sends it.
  const mail: MailDelivery = {
    deliverDue: async () => ({ sent: 0, failed: 0, dropped: 0 }),
    wake: () => undefined,
    settle: async () => undefined,
    destination: 'held in the outbox',
  };
  const platform: ServicePlatform = { config, principals, log: pino({ level: 'silent' }), mail, reads: primaryOnly() };
  const sessions = new Map<string, Promise<string>>();
  const sessionOf = (user: TestUser) => {
    if (!sessions.has(user.id)) {
      sessions.set(
        user.id,
        owner.db
          .insertInto('auth_sessions')
          .values({ user_id: user.id })
          .returning('id')
          .executeTakeFirstOrThrow()
          .then((row) => row.id),
      );
    }
    return sessions.get(user.id)!;
  };

  let closed = false;
  const context: ServiceContext = {
    database,
    db: owner.db,
    config,
    services: moduleServices(database.db, platform),
    servicesOn: (executor) => moduleServices(executor, platform),

    async callerOf(user, operation = null) {
      const sessionId = await sessionOf(user);
      // Read afresh: a suite may have changed the user's role or assignments since the last call.
      principals.invalidateUser(user.id);
      const resolution = await principals.resolve({ sub: user.id, email: user.email, emailVerified: true, sessionId, exp: Number.MAX_SAFE_INTEGER });
      if (resolution.kind !== 'ok') throw new Error(`${user.email} resolves to ${resolution.kind}, not a caller`);
      return { ...resolution.principal, ip: '127.0.0.1', userAgent: 'service-tier', operation };
    },

    async inRequestWork(fn, { rollback = false } = {}) {
      const request = await openRequestWork(database.db);
      try {
        const value = await fn({ work: request.work });
        if (rollback) throw new RolledBack(value);
        await request.commit();
        return value;
      } catch (error) {
        await request.rollback();
        if (error instanceof RolledBack) return error.value as Awaited<ReturnType<typeof fn>>;
        throw error;
      }
    },

    async close() {
      if (closed) return;
      closed = true;
      await database.close();
    },
  };
  afterAll(() => context.close());
  return context;
}
