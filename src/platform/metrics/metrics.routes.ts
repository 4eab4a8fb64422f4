import { timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { exposition, type Metrics } from './metrics.js';

/** The path Prometheus scrapes, on the metrics listener and (with METRICS_TOKEN) on the service's own. */
export const METRICS_PATH = '/metrics';

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * GET /metrics on the service's listener, for deployments that cannot open a second port: outside the
 * /api/v1 gate (no tenant, no user, no rate limit), and answered only with `Authorization: Bearer
 * <METRICS_TOKEN>`. Any other request gets 401 and no hint of what the metrics hold.
 */
export function registerMetricsRoute(app: FastifyInstance, metrics: Metrics, token: string): void {
  app.get(
    METRICS_PATH,
    {
      schema: {
        summary: 'Prometheus metrics',
        description: 'Prometheus text format. Needs `Authorization: Bearer <METRICS_TOKEN>`; see docs/operations.md.',
        operationId: 'platform.metrics',
        tags: ['platform'],
        security: [],
      },
      config: { public: true },
    },
    async (request, reply) => {
      const header = request.headers.authorization ?? '';
      const given = header.startsWith('Bearer ') ? header.slice('Bearer '.length).trim() : '';
      if (given === '' || !sameSecret(given, token)) {
        return reply
          .status(401)
          .header('www-authenticate', 'Bearer realm="metrics"')
          .send({ error: 'A valid metrics token is required', code: 'UNAUTHORIZED', request_id: request.id });
      }
      const { contentType, body } = await exposition(metrics);
      return reply.type(contentType).send(body);
    },
  );
}

/**
 * The metrics listener (METRICS_PORT, on METRICS_HOST: loopback unless an operator opens it): a bare
 * node:http server that answers GET /metrics and 404 to everything else. It shares nothing with the API's
 * listener, so no API path is reachable through it and no scrape goes through the API's gate or limits.
 */
export function createMetricsServer(metrics: Metrics): Server {
  return createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (request.method !== 'GET' || path !== METRICS_PATH) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found\n');
      return;
    }
    exposition(metrics).then(
      ({ contentType, body }) => response.writeHead(200, { 'content-type': contentType }).end(body),
      () => response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('Metrics unavailable\n'),
    );
  });
}

/** Starts the metrics listener; resolves with the server once it listens (port 0: any free port). */
export async function listenMetrics(metrics: Metrics, host: string, port: number): Promise<Server> {
  const server = createMetricsServer(metrics);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return server;
}
