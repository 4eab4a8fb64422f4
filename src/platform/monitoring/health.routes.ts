import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { isDatabaseUnavailable } from '../db/constraint-errors.js';
import type { Database } from '../db/engine.js';
import type { ReadRouting } from '../db/read-routing.js';
import { withTimeout } from '../timeout.js';
import type { Monitor } from './monitor.js';

const ReplicaHealth = Type.Object(
  {
    state: Type.Union([Type.Literal('ok'), Type.Literal('lagging'), Type.Literal('unreachable')], {
      description: 'ok: within REPLICA_MAX_LAG_MS; lagging: further behind; unreachable: it does not answer',
    }),
    lag_ms: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], { description: 'How far the replica was behind the primary at the last probe (every second); null when it did not answer' }),
    reads: Type.Union([Type.Literal('replica'), Type.Literal('primary')], { description: 'Where the reads allowed on the replica go now' }),
  },
  {
    description: 'The read replica (DATABASE_REPLICA_URL), when one is configured; absent otherwise. Its trouble never fails the check: its reads go to the primary.',
    examples: [{ state: 'ok', lag_ms: 0, reads: 'replica' }],
  },
);
const HealthOk = Type.Object({
  status: Type.Literal('ok'),
  version: Type.String(),
  database: Type.Literal('ok'),
  replica: Type.Optional(ReplicaHealth),
});
const HealthDown = Type.Object({
  status: Type.Literal('unavailable'),
  database: Type.Literal('unreachable'),
});

/** D9.6: no token, not rate-limited; 503 when the database does not answer within two seconds. */
export function registerHealthRoute(
  app: FastifyInstance,
  database: Database,
  version: string,
  monitor: Pick<Monitor, 'databaseError'>,
  reads: Pick<ReadRouting, 'status'>,
): void {
  app.get(
    '/health',
    {
      schema: {
        summary: 'Service and database health',
        operationId: 'platform.health',
        tags: ['platform'],
        security: [],
        response: {
          200: { ...HealthOk, description: 'The service and its database answer' },
          503: { ...HealthDown, description: 'The database does not answer within two seconds' },
        },
      },
      config: { public: true, accessLogLevel: 'debug' },
    },
    async (_request, reply) => {
      try {
        await withTimeout(pingTwice(database), 2_000);
        const replica = reads.status();
        return { status: 'ok' as const, version, database: 'ok' as const, ...(replica === null ? {} : { replica }) };
      } catch (error) {
        // An outage seen only by health checks still raises its `database` alert (D9.5).
        monitor.databaseError(error, true);
        return reply.status(503).send({ status: 'unavailable' as const, database: 'unreachable' as const });
      }
    },
  );
}

/**
 * A pooled connection the server ended while it sat idle fails its next query and is then dropped by the
 * pool: one more try on a fresh connection tells a database that is back from one that is still down.
 */
async function pingTwice(database: Database): Promise<void> {
  try {
    await database.ping();
  } catch (error) {
    if (!isDatabaseUnavailable(error)) throw error;
    await database.ping();
  }
}
