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

const probe = (operation: string) => ({ operation, public: true });

/** When the slow probes finished their work (the shutdown suite compares it with close()). */
export const probeClock = { slowFinishedAt: 0, streamFinishedAt: 0 };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const mountProbes: NonNullable<AppDeps['extend']> = (app, platform) => {
  app.post(
    '/api/v1/probe/items',
    { schema: { body: ProbeBody }, config: probe('probe.create') },
    async (request, reply) => reply.status(201).send({ data: request.body, message: 'created' }),
  );
  app.post('/api/v1/probe/actions/go', { config: probe('probe.action') }, async (request) => ({
    data: { body: request.body ?? null },
    message: 'done',
  }));
  app.get(
    '/api/v1/probe/items/:item_id',
    { schema: { params: IdParams('item_id'), querystring: ProbeQuery }, config: probe('probe.list') },
    async (request) => {
      const query = request.query as { page?: number; page_size?: number; status?: string; archived?: boolean };
      const page = pageRequest(query);
      return { data: [], pagination: paginationInfo(page, 0), query };
    },
  );
  app.get('/api/v1/probe/crash', { config: probe('probe.crash') }, async () => {
    throw new Error('boom at /srv/app/src/secret-module.ts:42 with token eyJhbGciOi');
  });
  app.get('/api/v1/probe/crash-string', { config: probe('probe.crash_string') }, async () => {
    throw 'a bare string with internals';
  });
  app.get('/api/v1/probe/pg-crash', { config: probe('probe.pg_crash') }, async () => {
    // What a driver error looks like: SQL in the message, a SQLSTATE, the driver's own fields.
    throw Object.assign(new Error('syntax error at or near "FROM" in SELECT password_hash FROM users WHERE email = $1'), {
      code: '42601',
      severity: 'ERROR',
      routine: 'scanner_yyerror',
      file: 'scan.l',
      position: '8',
    });
  });
  app.get('/api/v1/probe/bad-sql', { config: probe('probe.bad_sql') }, async () => {
    await sql`select secret_column from no_such_table_xyz`.execute(platform.database.db);
    return { data: null };
  });
  app.get('/api/v1/probe/query', { config: probe('probe.query') }, async () => {
    const row = await platform.database.db
      .selectFrom('enterprises')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    return { data: { enterprises: Number(row.count) } };
  });
  app.get('/api/v1/probe/slow', { config: probe('probe.slow') }, async () => {
    await sleep(200);
    probeClock.slowFinishedAt = Date.now();
    return { data: 'slow done' };
  });
  app.get('/api/v1/probe/stream', { config: probe('probe.stream') }, async (_request, reply) => {
    // Headers and a first chunk go out at once; the rest 300 ms later (an export in progress).
    async function* chunks() {
      yield 'first,';
      await sleep(300);
      probeClock.streamFinishedAt = Date.now();
      yield 'last';
    }
    return reply.type('text/csv').send(Readable.from(chunks()));
  });
};
