// The request path's share of the metrics, isolated: CPU time per request of one Fastify app with the
// service's metrics hooks (src/platform/metrics/http-metrics.ts: in-flight gauge, histogram by operation and
// status class) and of the same app without them, in one process, alternating batches (app.inject, no
// network). The difference is what metrics add to every request; bench/experiments/metrics-cost.mjs gives the service's
// whole CPU per request to divide it by.
//
//   node bench/experiments/metrics-hooks.mjs [--batches 20] [--batch 2000]     (after npm run build)
import Fastify from 'fastify';
import { registerHttpMetrics } from '../../dist/platform/metrics/http-metrics.js';
import { createMetrics } from '../../dist/platform/metrics/metrics.js';
import { median, options } from '../support.mjs';

const option = options();
const BATCHES = Number(option('batches', 20));
const BATCH = Number(option('batch', 2000));

async function appWith(metrics) {
  const app = Fastify({ logger: false });
  if (metrics) registerHttpMetrics(app, createMetrics());
  // Three operations and two status classes, as a service's traffic has.
  for (const name of ['a', 'b', 'c']) {
    app.get(`/${name}/:id`, { schema: { operationId: `bench.${name}` } }, async (request, reply) =>
      request.params.id === 'missing' ? reply.status(404).send({ error: 'Not found' }) : { data: { id: request.params.id } });
  }
  await app.ready();
  return app;
}

const urls = Array.from({ length: 64 }, (_, i) => `/${'abc'[i % 3]}/${i % 10 === 0 ? 'missing' : `item-${i}`}`);

async function batch(app) {
  const before = process.cpuUsage();
  for (let i = 0; i < BATCH; i += 1) await app.inject({ method: 'GET', url: urls[i % urls.length] });
  const used = process.cpuUsage(before);
  return (used.user + used.system) / BATCH; // µs per request
}

const [without, withMetrics] = [await appWith(false), await appWith(true)];
await batch(without);
await batch(withMetrics);
const runs = { without: [], with: [] };
for (let i = 0; i < BATCHES; i += 1) {
  const order = i % 2 === 0 ? ['without', 'with'] : ['with', 'without'];
  for (const name of order) runs[name].push(await batch(name === 'with' ? withMetrics : without));
}
const base = median(runs.without);
const instrumented = median(runs.with);
console.log(`app.inject, ${BATCHES} batches of ${BATCH} requests each, alternating, node ${process.version}`);
console.log(`CPU per request: without metrics ${base.toFixed(2)} µs, with ${instrumented.toFixed(2)} µs (median of batches)`);
console.log(`the metrics hooks add ${(instrumented - base).toFixed(2)} µs per request`);
