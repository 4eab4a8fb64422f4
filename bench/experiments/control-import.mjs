#!/usr/bin/env node
// The control library's import and export at their limit: 5,000 rows (1,000 key controls × 5 sub-controls with
// results), against the built service on the embedded engine (a fresh DATA_DIR), as a client admin would send it.
//   npm run build && node bench/experiments/control-import.mjs
// Prints the time of a dry run, of the import itself, of an import of the same file again (all unchanged) and of
// the CSV and XLSX exports. Options (environment): BENCH_ROWS (5000), BENCH_DATABASE_URL (a server instead).
import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ANON_KEY, enterpriseWithAdmin, root, signIn, startService, stop, SUPER_ADMIN } from '../support.mjs';

const ROWS = Number(process.env.BENCH_ROWS ?? 5000);

if (!existsSync(join(root, 'dist', 'main.js'))) {
  console.error('dist/main.js is missing: run `npm run build` first.');
  process.exit(1);
}

const dataRoot = mkdtempSync(join(tmpdir(), 'risk-bench-import-'));
chmodSync(dataRoot, 0o755);
let service = null;

/**
 * Not support.mjs's call, which sends and reads JSON: the import sends a CSV file and the exports answer files,
 * so this one sends the body as given and hands back the response.
 */
async function send(method, path, { token, body, contentType = 'application/json', headers = {} } = {}) {
  const response = await fetch(`${service.baseUrl}${path}`, {
    method,
    headers: { apikey: ANON_KEY, ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { 'content-type': contentType } : {}), ...headers },
    ...(body ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
  });
  if (!response.ok) throw new Error(`${method} ${path} → ${response.status} ${await response.text()}`);
  return response;
}

const timed = async (label, fn) => {
  const started = performance.now();
  const result = await fn();
  const ms = performance.now() - started;
  console.log(`${label.padEnd(44)} ${(ms / 1000).toFixed(2).padStart(7)} s`);
  return result;
};

try {
  service = await startService('service', process.env.BENCH_DATABASE_URL ? { DATABASE_URL: process.env.BENCH_DATABASE_URL } : { DATA_DIR: join(dataRoot, 'data') });
  const superToken = await signIn(service.baseUrl, SUPER_ADMIN.email, SUPER_ADMIN.password);
  const { token } = await enterpriseWithAdmin(service.baseUrl, superToken, 'Bench Import Ltd');

  const tods = ['A', 'B', 'C', 'D', 'E'];
  const lines = ['key_control,key_control_description,sub_control,sub_control_description,tod,toe,testing_date,tested_by,evidence_notes'];
  for (let i = 0; i < ROWS; i += 1) {
    const key = Math.floor(i / 5);
    lines.push(
      `Key control ${String(key).padStart(4, '0')},What key control ${key} achieves,Sub-control ${i},What is tested in ${i},${tods[i % 5]},${(i % 5) + 1},2026-0${(i % 9) + 1}-15,Tester ${i % 7},"Evidence for ${i}, sampled"`,
    );
  }
  const file = `${lines.join('\n')}\n`;
  console.log(`${ROWS.toLocaleString('en-US')} rows, ${(file.length / 1024).toFixed(0)} KiB, ${process.env.BENCH_DATABASE_URL ? 'server' : 'embedded engine'}`);
  const importFile = (query) => send('POST', `/api/v1/controls/import${query}`, { token, body: file, contentType: 'text/csv' }).then((r) => r.json());
  const dry = await timed('dry run (checked and rolled back)', () => importFile('?dry_run=true'));
  const real = await timed('import', () => importFile(''));
  const again = await timed('import of the same file (all unchanged)', () => importFile(''));
  await timed('export as CSV', () => send('GET', '/api/v1/controls/export?format=csv', { token }).then((r) => r.arrayBuffer()));
  await timed('export as XLSX', () => send('GET', '/api/v1/controls/export?format=xlsx', { token }).then((r) => r.arrayBuffer()));
  console.log(JSON.stringify({ dry: dry.data.sub_controls, real: real.data.sub_controls, again: again.data.sub_controls }));
} finally {
  if (service !== null) await stop(service.child);
  rmSync(dataRoot, { recursive: true, force: true });
}
