// The runtime limit of every scenario of bench/scale.mjs: a bare node:http + pg server that, for a request
// it knows, runs the very statements the service sent for it (captured from the PostgreSQL log with their
// parameters, bench/limits.mjs), each connection's statements in order on one pooled client (a connection that
// writes in one transaction ending in ROLLBACK, so that the write repeats), the connections' at once, then writes the JSON the
// service answered (parsed once, serialized per request). Nothing else: no routing table, validation, token
// check, rate limit, principal, logging. A pool of the service's size (10). It imports nothing from
// bench/support.mjs on purpose: a floor runs its statements and writes its answer, and support.mjs's helpers
// start and measure processes such as this one (bench/scale.mjs does).
//
//   DATABASE_URL=postgres://... PORT=3102 BENCH_REPLAY=/path/scenarios.json node bench/replay-handler.mjs
import { randomBytes, randomUUID, scrypt } from 'node:crypto';
import { promisify } from 'node:util';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import pg from 'pg';
import { replayGroups } from './limits.mjs';

const { DATABASE_URL, PORT = '3102', BENCH_REPLAY, BENCH_POOL = '10' } = process.env;
if (!DATABASE_URL || !BENCH_REPLAY) {
  process.stderr.write('DATABASE_URL and BENCH_REPLAY are required\n');
  process.exit(2);
}
const pool = new pg.Pool({ connectionString: DATABASE_URL, max: Number(BENCH_POOL) });

/** `METHOD /replay/<scenario>` → the captured requests (taken in turn), the answer's status and body. */
const routes = new Map();
for (const scenario of JSON.parse(readFileSync(BENCH_REPLAY, 'utf8'))) {
  routes.set(`${scenario.method} /replay/${scenario.key}`, {
    variants: scenario.variants.map((variant) => replayGroups(variant.statements)),
    next: 0,
    status: scenario.status,
    body: JSON.parse(scenario.body),
    passwordCheck: scenario.passwordCheck === true,
  });
}

const deriveKey = promisify(scrypt);
const SALT = randomBytes(16);
const checkPassword = () => deriveKey('bench password', SALT, 32, { N: 2 ** 17, r: 8, p: 1, maxmem: 2 * 128 * 2 ** 17 * 8 + 1024 * 1024 });

async function run(group) {
  const client = await pool.connect();
  try {
    // Fresh ids, and the sequence number (and entry) the head update has just taken, as the writer makes them.
    let lastSeq = null;
    let lastEntry = null;
    for (const { text, params } of group) {
      const values = params.map((value) =>
        value?.fresh === 'uuid' ? randomUUID() : value?.fresh === 'seq' ? lastSeq : value?.fresh === 'entry' ? lastEntry : value);
      const result = await client.query(text, values);
      if (/^update "audit_chain_heads" set "last_seq"/i.test(text)) lastSeq = result.rows[0].last_seq;
      if (/^insert into "audit_log"/i.test(text)) lastEntry = values[0];
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
      const groups = route.variants[route.next++ % route.variants.length];
      await Promise.all(groups.map(run));
      // A sign-in's own work besides its statements: one scrypt derivation at the service's cost
      // (src/modules/identity/passwords.ts: N=2^17, r=8, p=1, 32 bytes).
      if (route.passwordCheck) await checkPassword();
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
