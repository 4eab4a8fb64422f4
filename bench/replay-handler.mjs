// The runtime limit of every scenario of bench/scale.mjs: a bare node:http + pg server that, for a request
// it knows, runs the very statements the service sent for it (captured from the PostgreSQL log with their
// parameters, bench/limits.mjs), each connection's statements in order on one pooled client (so a transaction
// stays on its connection; a COMMIT becomes ROLLBACK, so that a write can repeat), the connections' at once, then writes the JSON the
// service answered (parsed once, serialized per request). Nothing else: no routing table, validation, token
// check, rate limit, principal, logging. A pool of the service's size (10).
//
//   DATABASE_URL=postgres://... PORT=3102 BENCH_REPLAY=/path/scenarios.json node bench/replay-handler.mjs
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import pg from 'pg';

const { DATABASE_URL, PORT = '3102', BENCH_REPLAY, BENCH_POOL = '10' } = process.env;
if (!DATABASE_URL || !BENCH_REPLAY) {
  process.stderr.write('DATABASE_URL and BENCH_REPLAY are required\n');
  process.exit(2);
}
const pool = new pg.Pool({ connectionString: DATABASE_URL, max: Number(BENCH_POOL) });

/** key `METHOD url` → { groups: [[{ text, params }]], status, body } */
const routes = new Map();
for (const scenario of JSON.parse(readFileSync(BENCH_REPLAY, 'utf8'))) {
  const groups = new Map();
  for (const { pid, text, params } of scenario.statements) {
    if (!groups.has(pid)) groups.set(pid, []);
    groups.get(pid).push({ text: /^commit\b/i.test(text) ? 'rollback' : text, values: params });
  }
  routes.set(`${scenario.method} ${scenario.url}`, { groups: [...groups.values()], status: scenario.status, body: JSON.parse(scenario.body) });
}

const isAuditInsert = (text) => /^insert into "audit_log"/i.test(text);
const isHeadMove = (text) => /^update "audit_chain_heads" set "last_seq"/i.test(text);

async function run(group) {
  const client = await pool.connect();
  try {
    // An audit entry gets a new id and the sequence number the head update has just taken, as the writer
    // gives them (the captured ones are taken by then).
    let lastSeq = null;
    for (const { text, values } of group) {
      const params = isAuditInsert(text) ? values.map((value, i) => (i === 0 ? randomUUID() : i === 2 ? lastSeq : value)) : values;
      const result = await client.query(text, params);
      if (isHeadMove(text)) lastSeq = result.rows[0].last_seq;
    }
  } finally {
    client.release();
  }
}

const server = createServer((request, response) => {
  const route = routes.get(`${request.method} ${request.url}`);
  request.resume();
  if (route === undefined) {
    response.writeHead(404).end();
    return;
  }
  request.on('end', async () => {
    try {
      // The service sends the statements of different connections at once (Promise.all); so does this.
      await Promise.all(route.groups.map(run));
      const body = JSON.stringify(route.body);
      response.writeHead(route.status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
      response.end(body);
    } catch (error) {
      process.stderr.write(`${error.stack}\n`);
      response.writeHead(500).end();
    }
  });
});
server.keepAliveTimeout = 72_000;
server.listen(Number(PORT), '127.0.0.1', () => process.stdout.write(`replay handler listening on ${PORT}\n`));
const stop = () => {
  server.close(() => pool.end().then(() => process.exit(0)));
  server.closeAllConnections();
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
