import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The web console (web/, built by scripts/build.mjs into web/dist) served at `/`. Its assets have content
 * hashes in their names, so they are cached for a year; the page itself is never cached, so a new build
 * is seen on the next load. The page carries the provider's public client key (AUTH_ANON_KEY, sent by
 * every browser anyway) so that the console can sign in without a setting of its own.
 */
export const CONSOLE_DIR = fileURLToPath(new URL('../../../web/dist/', import.meta.url));

const KEY_PLACEHOLDER = '%AUTH_ANON_KEY%';

export interface ConsoleOptions {
  /** The embedded provider's public client key; null in external mode (the console then has no sign-in). */
  anonKey: string | null;
  dir?: string | undefined;
}

export interface ConsolePage {
  /** Serves index.html (200): the entry of every console route, so a reload of /bras/<id> works. */
  send(reply: FastifyReply): FastifyReply;
}

function notBuilt(reply: FastifyReply): FastifyReply {
  return reply
    .code(503)
    .type('text/plain; charset=utf-8')
    .header('cache-control', 'no-store')
    .send('The console is not built. Run `npm run build` (or `npm start`, which builds it), then reload.\n');
}

/** Registers `/` and the console's assets, public and outside the /api/v1 gate. */
export async function registerConsole(app: FastifyInstance, options: ConsoleOptions): Promise<ConsolePage> {
  const dir = options.dir ?? CONSOLE_DIR;
  const indexFile = `${dir}index.html`;
  const built = existsSync(indexFile);
  const html = built ? readFileSync(indexFile, 'utf8').replace(KEY_PLACEHOLDER, options.anonKey ?? '') : null;
  const page: ConsolePage = {
    send: (reply) =>
      html === null ? notBuilt(reply) : reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(html),
  };
  await app.register(async (console) => {
    console.addHook('onRoute', (route) => {
      route.config = { ...route.config, public: true };
      route.schema = { ...route.schema, hide: true, operationId: route.routePath === '/' ? 'platform.console.index' : 'platform.console.asset' };
    });
    console.get('/', async (_request, reply) => page.send(reply));
    if (built && existsSync(`${dir}assets`)) {
      await console.register(fastifyStatic, {
        root: `${dir}assets`,
        prefix: '/assets/',
        // One route for every asset (`/assets/*`); a missing file falls through to the JSON 404.
        index: false,
        immutable: true,
        maxAge: '365d',
      });
    }
  });
  return page;
}

/**
 * A GET for an unknown path outside /api and /auth that asks for a page is a console route (/bras/<id>,
 * /actions, ...): the console's router draws it, or its own "not found" screen.
 */
export function isConsoleRoute(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const path = request.url.split('?')[0] ?? '';
  if (/^\/(api|auth|docs|assets|health)(\/|$)/.test(path)) return false;
  return (request.headers.accept ?? '').includes('text/html');
}
