// The two limits a scenario of bench/scale.mjs is measured against, from the statements the service really sends:
//  - capture: the database logs every statement of one request (log_statement = all, set on the bench database
//    only, for the connections of a service started for the capture), read back from the server's log file
//    between two marker statements, with their parameters;
//  - the database limit: those statements, parameters inlined as the log shows them, replayed by
//    `pgbench -f` at the same concurrency (a write's transaction ends in ROLLBACK so that it can repeat);
//  - the runtime limit: bench/replay-handler.mjs, a bare node:http + pg server that runs the same statements
//    with the same parameters on a pool of the service's size and writes the same JSON, nothing else.
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
  return statements;
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
 * Captures what one request sends: `send()` runs once to warm (caches, a principal the service keeps for a few
 * seconds), then once between markers. `markerUrl` connects to the bench database (so the markers are logged).
 */
export async function capture({ logPath = DEFAULT_PG_LOG, markerUrl, database, name, send }) {
  await send();
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

/** An audit entry's insert: its id and chain_seq ($1, $3) are what a replay must make afresh. */
export const isAuditInsert = (text) => /^insert into "audit_log"/i.test(text);

/**
 * A statement with its parameters written in, as pgbench sends it. An audit entry gets a new id and the
 * sequence number its transaction's head update has just taken, as the writer gives them: the captured ones
 * are taken by then.
 */
export function inlined({ text, params }) {
  const raw = isAuditInsert(text)
    ? { 1: 'gen_random_uuid()', 3: `(select last_seq from audit_chain_heads where chain_key = ${quote(params[1])})` }
    : {};
  return text.replace(/\$(\d+)\b/g, (_, n) => raw[n] ?? quote(params[Number(n) - 1]));
}

/**
 * The pgbench script of a request: its statements in order; a transaction the service commits ends in
 * ROLLBACK instead (a write repeats without its ids colliding; the commit's flush is not counted).
 */
export function pgbenchScript(statements) {
  return statements
    .map((statement) => {
      const sql = inlined(statement);
      return /^commit\b/i.test(sql) ? 'rollback;' : `${sql.replace(/;\s*$/, '')};`;
    })
    .join('\n');
}

/** pgbench -f script at `clients` connections for `seconds`: transactions (requests) per second and mean latency. */
export function pgbench({ url, script, clients, seconds, file }) {
  writeFileSync(file, `${script}\n`);
  const run = spawnSync('pgbench', ['-n', '-f', file, '-c', String(clients), '-j', '2', '-T', String(seconds), '-M', 'extended', url], { encoding: 'utf8' });
  const tps = /tps = ([\d.]+)/.exec(run.stdout);
  const latency = /latency average = ([\d.]+) ms/.exec(run.stdout);
  const failed = /number of failed transactions: (\d+)/.exec(run.stdout);
  if (tps === null) throw new Error(`pgbench failed: ${run.stderr || run.stdout}`);
  return { rps: Number(tps[1]), meanMs: latency ? Number(latency[1]) : null, failed: failed ? Number(failed[1]) : 0 };
}
