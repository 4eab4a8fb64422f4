// The two limits a scenario of bench/scale.mjs is measured against, from the statements the service really sends:
//  - capture: the database logs every statement of one request (log_statement = all, set on the bench database
//    only, for the connections of a service started for the capture), read back from the server's log file
//    between two marker statements, with their parameters;
//  - the database limit: those statements, parameters inlined as the log shows them, replayed by
//    `pgbench -f` at the same concurrency (a write's transaction ends in ROLLBACK so that it can repeat);
//  - the runtime limit: bench/replay-handler.mjs, a bare node:http + pg server that runs the same statements
//    with the same parameters on a pool of the service's size and writes the same JSON, nothing else.
// Nothing here comes from bench/support.mjs: this file reads the server's log and writes pgbench scripts;
// starting the services and measuring them is bench/scale.mjs's, with support.mjs.
import { spawnSync } from 'node:child_process';
import { closeSync, openSync, readSync, statSync, writeFileSync } from 'node:fs';
import pg from 'pg';

export const DEFAULT_PG_LOG = '/var/log/postgresql/postgresql-15-main.log';

const LINE_START = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d+)? \S+ \[(\d+)\] (\S*)@(\S*) (LOG|DETAIL|ERROR|STATEMENT|HINT|WARNING|NOTICE|CONTEXT):  (.*)$/;

function readFrom(path, offset) {
  const size = statSync(path).size;
  if (size <= offset) return '';
  const buffer = Buffer.alloc(size - offset);
  const fd = openSync(path, 'r');
  try {
    readSync(fd, buffer, 0, buffer.length, offset);
  } finally {
    closeSync(fd);
  }
  return buffer.toString('utf8');
}

/** Log entries (with continuation lines joined) of one database, in order. */
function entriesOf(text, database) {
  const entries = [];
  let current = null;
  for (const line of text.split('\n')) {
    const match = LINE_START.exec(line);
    if (match) {
      current = { pid: match[2], database: match[4], level: match[5], text: match[6] };
      if (current.database === database) entries.push(current);
      else current = { ignored: true };
    } else if (current && !current.ignored) {
      current.text += `\n${line.replace(/^\t/, '')}`;
    }
  }
  return entries;
}

/** `$1 = 'a', $2 = NULL` → ['a', null] as the log quotes them (single quotes doubled). */
function parseParameters(text) {
  const values = [];
  const pattern = /\$(\d+) = (NULL|'((?:[^']|'')*)')/g;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    values[Number(match[1]) - 1] = match[2] === 'NULL' ? null : match[3].replace(/''/g, "'");
  }
  return values;
}

/** The statements (text and parameters) logged for the database between the two markers. */
export function statementsBetween(text, database, startMarker, endMarker) {
  const entries = entriesOf(text, database);
  const from = entries.findIndex((e) => e.text.includes(startMarker));
  const to = entries.findIndex((e, i) => i > from && e.text.includes(endMarker));
  if (from === -1 || to === -1) throw new Error(`markers ${startMarker} / ${endMarker} not found in the log`);
  const markerPid = entries[from].pid;
  const statements = [];
  for (let i = from + 1; i < to; i += 1) {
    const entry = entries[i];
    if (entry.pid === markerPid) continue;
    const statement = /^(?:statement|execute [^:]*): ([\s\S]*)$/.exec(entry.text);
    if (entry.level !== 'LOG' || statement === null) continue;
    const detail = entries[i + 1];
    const params = detail && detail.level === 'DETAIL' && detail.pid === entry.pid && detail.text.startsWith('parameters:')
      ? parseParameters(detail.text) : [];
    statements.push({ pid: entry.pid, text: statement[1].trim(), params });
  }
  return withoutBackgroundWork(statements);
}

/**
 * The service's background work (the outbox dispatcher, webhook leases, the alert monitor, health history)
 * runs on its own timers and may fall between the markers: not the request's. A transaction left empty by
 * that (BEGIN then COMMIT) goes too.
 */
const BACKGROUND = [
  /from "event_outbox" order by "seq"/, /pg_try_advisory_xact_lock/, /^update webhook_endpoints set lease_until/i, /^update mail_outbox set lease/i, /"system_alerts"/,
  /"enterprise_health_history"/, /count\(\*\) as "overdue" from "mitigation_actions"/, /^select e\.id as enterprise_id,/,
  /^insert into "event_keys"/, /^insert into webhook_deliveries/, /^delete from "event_outbox"/, /^select a\.id, a\.enterprise_id, a\.action, a\.owner/,
];
/** The overdue-actions job's events (one per overdue action), among a request's own events. */
const isJobEvent = ({ text, params }) => /^insert into "event_outbox"/.test(text) && String(params[1] ?? '').startsWith('mitigation_action.overdue');

/**
 * The caller's principal is read once per user every few seconds (PRINCIPAL_TTL), not per request: under load
 * its cost per request is nil, so a capture that happens to include it leaves it out.
 */
const AMORTIZED = [/^select "u"\."id", "u"\."email", "u"\."full_name", "u"\."active", "u"\."is_super_admin", "m"\."role"/];

/** A transaction of the overdue-actions job: its query, then an event (and its key) per overdue action. */
const BACKGROUND_TRANSACTIONS = [/^select a\.id, a\.enterprise_id, a\.action, a\.owner/];

export function withoutBackgroundWork(statements) {
  // A transaction that holds a background job's statement is the job's, all of it.
  const dropped = new Set();
  const open = new Map();
  statements.forEach((statement, i) => {
    if (/^begin\b/i.test(statement.text)) open.set(statement.pid, [i]);
    else if (open.has(statement.pid)) open.get(statement.pid).push(i);
    const members = open.get(statement.pid) ?? [i];
    if (BACKGROUND_TRANSACTIONS.some((pattern) => pattern.test(statement.text))) members.forEach((at) => dropped.add(at));
    if (/^(commit|rollback)\b/i.test(statement.text)) {
      if (members.some((at) => dropped.has(at))) members.forEach((at) => dropped.add(at));
      open.delete(statement.pid);
    }
  });
  const kept = statements.filter((statement, i) =>
    !dropped.has(i) && !isJobEvent(statement) && ![...BACKGROUND, ...AMORTIZED].some((pattern) => pattern.test(statement.text)));
  return kept.filter((statement, i) => {
    const nextOfPid = (from) => kept.slice(from + 1).find((other) => other.pid === statement.pid);
    const previousOfPid = (from) => kept.slice(0, from).reverse().find((other) => other.pid === statement.pid);
    if (/^begin\b/i.test(statement.text)) return !/^commit\b/i.test(nextOfPid(i)?.text ?? '');
    if (/^commit\b/i.test(statement.text)) return !/^begin\b/i.test(previousOfPid(i)?.text ?? '');
    return true;
  });
}

/** Turns statement logging on for the connections opened from now on to `database` (off again with the returned function). */
export async function logStatements(adminUrl, database) {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`alter database ${database} set log_statement = 'all'`);
  await admin.end();
  return async () => {
    const again = new pg.Client({ connectionString: adminUrl });
    await again.connect();
    await again.query(`alter database ${database} reset log_statement`);
    await again.end();
  };
}

/**
 * Captures what one request sends: `warm()` (default: `send()`) runs first (caches, a principal the service keeps
 * for a few seconds; null: nothing), then `send()` between markers. `markerUrl` connects to the bench database (so the markers are logged).
 */
export async function capture({ logPath = DEFAULT_PG_LOG, markerUrl, database, name, send, warm = send }) {
  if (warm !== null) await warm();
  const marker = new pg.Client({ connectionString: markerUrl });
  await marker.connect();
  const offset = statSync(logPath).size;
  const tag = `bench_capture_${name.replace(/\W/g, '_')}_${Date.now()}`;
  await marker.query(`select '${tag}_start'`);
  const response = await send();
  await marker.query(`select '${tag}_end'`);
  await marker.end();
  // The log is written by the server's own process: give it a moment to reach the file.
  await new Promise((resolve) => setTimeout(resolve, 300));
  const statements = statementsBetween(readFrom(logPath, offset), database, `${tag}_start`, `${tag}_end`);
  return { statements, response };
}

const quote = (value) => (value === null || value === undefined ? 'NULL' : `'${String(value).replace(/'/g, "''")}'`);

const isWrite = (text) => /^(insert|update|delete)\b/i.test(text);
const isTransactionControl = (text) => /^(begin|commit|rollback)\b/i.test(text);

/**
 * What a replay must make afresh, by the column a parameter goes to: a generated `id` or token hash (the captured
 * one is taken by then), the `chain_seq` of an audit entry or checkpoint (the one its transaction's head update has
 * just taken) and a checkpoint's `last_entry_id` (that entry). `{ fresh }` replaces the captured value.
 */
export function freshParameters(text, params) {
  const insert = /^insert into "(\w+)" \(([^)]*)\) values (.*)$/is.exec(text);
  if (insert === null) return params;
  const [, table, columnList, values] = insert;
  const columns = columnList.split(',').map((column) => column.trim().replace(/"/g, ''));
  const out = [...params];
  [...values.matchAll(/\$(\d+)/g)].forEach((match, k) => {
    const column = columns[k % columns.length];
    const at = Number(match[1]) - 1;
    if (column === 'id' || column === 'token_hash') out[at] = { fresh: 'uuid' };
    else if (column === 'chain_seq' && (table === 'audit_log' || table === 'audit_checkpoints')) out[at] = { fresh: 'seq', chain: params[columns.indexOf('enterprise_id')] ?? null };
    else if (column === 'last_entry_id' && table === 'audit_checkpoints') out[at] = { fresh: 'entry', chain: params[columns.indexOf('enterprise_id')] ?? null };
  });
  return out;
}

/**
 * A request's statements as a replay runs them, per connection: a connection that writes runs in one
 * transaction that ends in ROLLBACK (so that the write repeats, and the statements the service sends after its
 * COMMIT still find what they refer to); a reading one runs as captured.
 */
export function replayGroups(statements) {
  const groups = new Map();
  for (const { pid, text, params } of statements) {
    if (!groups.has(pid)) groups.set(pid, []);
    groups.get(pid).push({ text, params: freshParameters(text, params) });
  }
  return [...groups.values()].map((group) =>
    group.some(({ text }) => isWrite(text) || isTransactionControl(text))
      ? [{ text: 'begin', params: [] }, ...group.filter(({ text }) => !isTransactionControl(text)), { text: 'rollback', params: [] }]
      : group);
}

/** A statement with its parameters written in, as pgbench sends it (fresh ones as SQL that makes them). */
export function inlined({ text, params }) {
  const head = (chain) => `(select last_seq from audit_chain_heads where chain_key = ${quote(chain)})`;
  const sql = (value) =>
    value?.fresh === 'uuid' ? 'gen_random_uuid()'
      : value?.fresh === 'seq' ? head(value.chain)
        : value?.fresh === 'entry' ? `(select id from audit_log where enterprise_id = ${quote(value.chain)} and chain_seq = ${head(value.chain)})`
          : quote(value);
  return text.replace(/\$(\d+)\b/g, (_, n) => sql(params[Number(n) - 1]));
}

/** The pgbench script of a request: its connections' statements one after the other (see replayGroups). */
export function pgbenchScript(statements) {
  return replayGroups(statements)
    .flat()
    .map((statement) => `${inlined(statement).replace(/;\s*$/, '')};`)
    .join('\n');
}

/** pgbench -f script… (one picked at random per transaction) at `clients` connections for `seconds`: transactions (requests) per second and mean latency. */
export function pgbench({ url, scripts, clients, seconds }) {
  for (const { file, script } of scripts) writeFileSync(file, `${script}\n`);
  const run = spawnSync('pgbench', ['-n', ...scripts.flatMap(({ file }) => ['-f', file]), '-c', String(clients), '-j', '2', '-T', String(seconds), '-M', 'extended', url], { encoding: 'utf8' });
  const tps = /tps = ([\d.]+)/.exec(run.stdout);
  const latency = /latency average = ([\d.]+) ms/.exec(run.stdout);
  const failed = /number of failed transactions: (\d+)/.exec(run.stdout);
  if (tps === null) throw new Error(`pgbench failed: ${run.stderr || run.stdout}`);
  return { rps: Number(tps[1]), meanMs: latency ? Number(latency[1]) : null, failed: failed ? Number(failed[1]) : 0 };
}
