// The security headers' cost per request: this checkout's service against an earlier build (--before DIR, a
// checkout of the commit before the change, built), both on the same bench database, measured in one run in
// alternating rounds (before, after, after, before, …) so that the shared machine's load falls on both alike.
//
//   git archive <commit> | tar -x -C /tmp/headers-before && ln -s "$PWD/node_modules" /tmp/headers-before/node_modules
//   (cd /tmp/headers-before && node scripts/build.mjs --service-only) && node scripts/build.mjs --service-only
//   node --import tsx bench/experiments/security-headers.mjs [--micro] --before /tmp/headers-before [--scale small] [--rounds 2]
//        [--duration 10] [--connections 32] [--paths /api/v1/audit,/api/v1/bras,/health]
//
// Per path and build: req/s, p99 and the service's CPU ms per request (bench/support.mjs's `measure`), with the
// token of a client admin of the biggest tenant (one sign-in, valid on both services: same issuer and keys).
// First, in this process, the headers' own cost per answer, which the whole service's figures (a few µs in
// a millisecond) hide in the shared machine's noise: Helmet built per request and run (what @fastify/helmet did),
// Helmet's middleware built once, and the recorded headers (src/platform/http/security-headers.ts), each on
// real `http.ServerResponse`s. `--micro` stops after that part (no --before needed).
import http from 'node:http';
import net from 'node:net';
import helmet from 'helmet';
import { CONTENT_SECURITY_POLICY } from '../../src/platform/http/security-headers.ts';
import { BENCH_PASSWORD } from '../data.mjs';
import { fixed, loadAverage, mean, measure, options, signIn, startService, stop } from '../support.mjs';

const option = options();

const helmetOptions = {
  contentSecurityPolicy: { useDefaults: false, directives: CONTENT_SECURITY_POLICY }, frameguard: { action: 'deny' },
  referrerPolicy: { policy: 'no-referrer' }, hsts: false, crossOriginEmbedderPolicy: false,
};
const recorded = { set: [], removed: [] };
helmet(helmetOptions)({}, { setHeader: (name, value) => recorded.set.push([name, value]), removeHeader: (name) => recorded.removed.push(name) }, () => undefined);
const once = helmet(helmetOptions);
const ways = {
  'Helmet built per request, then run (@fastify/helmet)': (response) => helmet(helmetOptions)({}, response, () => undefined),
  'Helmet built once, run per request': (response) => once({}, response, () => undefined),
  'the recorded headers set per request (the service now)': (response) => {
    for (const [name, value] of recorded.set) response.setHeader(name, value);
    for (const name of recorded.removed) response.removeHeader(name);
  },
};
const responses = Array.from({ length: 1000 }, () => new http.ServerResponse(new http.IncomingMessage(new net.Socket())));
const CALLS = 100_000;
for (let round = 1; round <= 3; round += 1) {
  for (const [name, way] of Object.entries(ways)) {
    for (let i = 0; i < 20_000; i += 1) way(responses[i % responses.length]);
    const started = process.hrtime.bigint();
    for (let i = 0; i < CALLS; i += 1) way(responses[i % responses.length]);
    console.log(`round ${round}: ${(Number(process.hrtime.bigint() - started) / CALLS / 1000).toFixed(2).padStart(6)} µs per answer  ${name}`);
  }
}
if (option('micro', false) !== false) process.exit(0);

const BEFORE = option('before', null);
if (BEFORE === null) throw new Error('--before DIR: a built checkout of the commit before the change');
const SCALE = option('scale', 'small');
const DATABASE_URL = option('database-url', process.env.DATABASE_URL ?? `postgres://postgres@127.0.0.1:5432/bench_${SCALE}`);
const ROUNDS = Number(option('rounds', '2'));
const DURATION = Number(option('duration', '10'));
const CONNECTIONS = Number(option('connections', '32'));
const PATHS = String(option('paths', '/api/v1/audit,/api/v1/bras,/health')).split(',');

const builds = [
  { name: 'before', cwd: BEFORE },
  { name: 'after', cwd: undefined },
];
const services = {};
for (const build of builds) services[build.name] = await startService(build.name, { DATABASE_URL }, build.cwd ? { cwd: build.cwd } : {});
const token = await signIn(services.after.baseUrl, 'admin-1@e1.bench.test', BENCH_PASSWORD);
const results = [];
for (let round = 0; round < ROUNDS; round += 1) {
  const order = round % 2 === 0 ? builds : [...builds].reverse();
  for (const path of PATHS) {
    for (const build of order) {
      const service = services[build.name];
      const load = loadAverage();
      const result = await measure({ url: `${service.baseUrl}${path}`, pid: service.pid, connections: CONNECTIONS, duration: DURATION,
        headers: { authorization: `Bearer ${token}` } });
      results.push({ round, path, build: build.name, load, ...result });
      console.log(`round ${round + 1} ${path.padEnd(16)} ${build.name.padEnd(6)} ${fixed(result.rps).padStart(6)} req/s p99 ${fixed(result.p99)} ms ` +
        `CPU ${fixed(result.cpuMs, 3)} ms/req (load ${load})`);
    }
  }
}
console.log('\n| Path | before req/s | after req/s | before CPU ms/req | after CPU ms/req | CPU after/before |');
console.log('|---|---:|---:|---:|---:|---:|');
for (const path of PATHS) {
  const of = (name, key) => mean(results.filter((r) => r.path === path && r.build === name).map((r) => r[key]));
  console.log(`| ${path} | ${fixed(of('before', 'rps'))} | ${fixed(of('after', 'rps'))} | ${fixed(of('before', 'cpuMs'), 3)} | ` +
    `${fixed(of('after', 'cpuMs'), 3)} | ${fixed(of('after', 'cpuMs') / of('before', 'cpuMs'), 2)} |`);
}
for (const service of Object.values(services)) await stop(service.child);
process.exit(0);
