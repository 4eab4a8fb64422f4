import type { FastifyInstance } from 'fastify';

/**
 * Graceful shutdown (main.ts: app.close() on SIGTERM). Node's server.close() reaps only the connections
 * that are idle when it is called; a keep-alive connection whose request was still in flight goes idle
 * afterwards and would hold close() open for the whole keep-alive timeout. So once closing has begun,
 * responses say `Connection: close`, and the socket of a finished response is ended.
 */
export function registerGracefulClose(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  // Callback hooks: every response runs them, and an async hook costs a promise and a tick.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing && !reply.raw.headersSent) reply.header('connection', 'close');
    done(null, payload);
  });
  app.addHook('onResponse', (request, _reply, done) => {
    // A response whose headers went out before closing began (a long stream) still said keep-alive.
    if (closing) request.raw.socket?.end();
    done();
  });
}
