import { EventEmitter } from 'node:events';
import { Readable } from 'node:stream';
import { sql } from 'kysely';
import { Type } from 'typebox';
import type { AppDeps } from '../../src/app.js';
import { CalendarDate, IdParams, Name, PaginationQuery, Uuid } from '../../src/platform/http/schemas.js';
import { pageRequest, paginationInfo } from '../../src/platform/http/pagination.js';

/**
 * Probe routes for the platform suites: they exercise the foundation (parsing, validation, the error
 * handler) the way module routes will, without depending on any module. Public, so no token is needed.
 */
export const ProbeBody = Type.Object(
  {
    name: Name(),
    count: Type.Optional(Type.Integer({ minimum: 0, maximum: 10 })),
    owner_id: Type.Optional(Uuid()),
    due_date: Type.Optional(CalendarDate()),
    nested: Type.Optional(Type.Object({ label: Type.String({ minLength: 1 }) }, { additionalProperties: false })),
  },
  { additionalProperties: false },
);

const ProbeQuery = Type.Object({
  ...PaginationQuery,
  status: Type.Optional(Type.Union([Type.Literal('open'), Type.Literal('closed')])),
  archived: Type.Optional(Type.Boolean()),
});

/** Outside the gate, so explicitly public; named by the operationId of its schema, as module routes are. */
const PUBLIC = { public: true } as const;

/** When the slow probes finished their work (the shutdown suite compares it with close()). */
export const probeClock = { slowFinishedAt: 0, streamFinishedAt: 0 };
/**
 * The slow probes hold their answer until the suite releases them (no timing involved): 'slow:started'
 * when the slow handler runs, and `releaseSlowProbes()` lets both finish.
 */
export const probeEvents = new EventEmitter();
let release: () => void = () => undefined;
const released = new Promise<void>((resolve) => {
  release = resolve;
});
export const releaseSlowProbes = () => release();

export const mountProbes: NonNullable<AppDeps['extend']> = (app, platform) => {
  app.post(
    '/api/v1/probe/items',
    { schema: { operationId: 'probe.create', body: ProbeBody }, config: PUBLIC },
    async (request, reply) => reply.status(201).send({ data: request.body, message: 'created' }),
  );
  app.post('/api/v1/probe/actions/go', { schema: { operationId: 'probe.action' }, config: PUBLIC }, async (request) => ({
    data: { body: request.body ?? null },
    message: 'done',
  }));
  app.get(
    '/api/v1/probe/items/:item_id',
    { schema: { operationId: 'probe.list', params: IdParams('item_id'), querystring: ProbeQuery }, config: PUBLIC },
    async (request) => {
      const query = request.query as { page?: number; page_size?: number; status?: string; archived?: boolean };
      const page = pageRequest(query);
      return { data: [], pagination: paginationInfo(page, 0), query };
    },
  );
  app.get('/api/v1/probe/crash', { schema: { operationId: 'probe.crash' }, config: PUBLIC }, async () => {
    throw new Error('boom at /srv/app/src/secret-module.ts:42 with token eyJhbGciOi');
  });
  app.get('/api/v1/probe/crash-string', { schema: { operationId: 'probe.crash_string' }, config: PUBLIC }, async () => {
    throw 'a bare string with internals';
  });
  app.get('/api/v1/probe/pg-crash', { schema: { operationId: 'probe.pg_crash' }, config: PUBLIC }, async () => {
    // What a driver error looks like: SQL in the message, a SQLSTATE, the driver's own fields.
    throw Object.assign(new Error('syntax error at or near "FROM" in SELECT password_hash FROM users WHERE email = $1'), {
      code: '42601',
      severity: 'ERROR',
      routine: 'scanner_yyerror',
      file: 'scan.l',
      position: '8',
    });
  });
  app.get('/api/v1/probe/bad-sql', { schema: { operationId: 'probe.bad_sql' }, config: PUBLIC }, async () => {
    await sql`select secret_column from no_such_table_xyz`.execute(platform.database.db);
    return { data: null };
  });
  app.get('/api/v1/probe/query', { schema: { operationId: 'probe.query' }, config: PUBLIC }, async () => {
    const row = await platform.database.db
      .selectFrom('enterprises')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    return { data: { enterprises: Number(row.count) } };
  });
  app.get('/api/v1/probe/slow', { schema: { operationId: 'probe.slow' }, config: PUBLIC }, async () => {
    probeEvents.emit('slow:started');
    await released;
    probeClock.slowFinishedAt = Date.now();
    return { data: 'slow done' };
  });
  app.get('/api/v1/probe/stream', { schema: { operationId: 'probe.stream' }, config: PUBLIC }, async (_request, reply) => {
    // Headers and a first chunk go out at once; the rest once released (an export in progress).
    async function* chunks() {
      yield 'first,';
      await released;
      probeClock.streamFinishedAt = Date.now();
      yield 'last';
    }
    return reply.type('text/csv').send(Readable.from(chunks()));
  });
};
