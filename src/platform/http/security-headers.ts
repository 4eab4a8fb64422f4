import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * The headers that keep a browser from framing, sniffing or leaking what this service answers, on every
 * answer (the API's JSON, the console, the reference at /docs, the provider's /auth/v1), set in one onRequest
 * hook. Helmet writes them: its middleware runs once at start-up against a response that records what it sets,
 * and each answer gets the recorded headers. (@fastify/helmet built Helmet's middleware anew on every request,
 * parsing the policy each time, in two onRequest hooks: 2-3 % of the CPU of a list or an audit page in the
 * profiles, bench/README.md. The policy has no nonce and no per-request directive, so its headers are constant.)
 *
 * The Content Security Policy is the console's: its Vite build loads only its own hashed scripts (no inline
 * script, no eval), so scripts are 'self' alone. Styles allow inline because Mantine writes its theme's CSS
 * variables into a <style> element and components set `style` attributes; a style cannot run code. The
 * reference at /docs (Swagger UI) lives within the same policy: its scripts are files of its own, its images
 * data: URLs. No page may be framed (`frame-ancestors 'none'`, and X-Frame-Options for older browsers).
 * HSTS only when the service is published over https (PUBLIC_URL): on plain http it would be ignored, and
 * on a developer's localhost it would stick to the name for a year.
 */
export const CONTENT_SECURITY_POLICY = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:', 'blob:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  upgradeInsecureRequests: null,
};

/** HSTS for a year, subdomains included, once the published address is https. */
export const HSTS_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

export async function registerSecurityHeaders(app: FastifyInstance, options: { publicUrl: string }): Promise<void> {
  const https = new URL(options.publicUrl).protocol === 'https:';
  const { set, removed } = recordedHeaders({
    contentSecurityPolicy: { useDefaults: false, directives: CONTENT_SECURITY_POLICY },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    hsts: https ? { maxAge: HSTS_MAX_AGE_SECONDS, includeSubDomains: true } : false,
    // The API is called from other origins' servers, not embedded by their pages: nothing to isolate.
    crossOriginEmbedderPolicy: false,
  });
  app.addHook('onRequest', (_request, reply, done) => {
    for (const [name, value] of set) reply.raw.setHeader(name, value);
    for (const name of removed) reply.raw.removeHeader(name);
    done();
  });
}

/** The headers Helmet's middleware sets (and removes) with these options, recorded from one run of it. */
function recordedHeaders(options: HelmetOptions): { set: [string, string | number | readonly string[]][]; removed: string[] } {
  const set = new Map<string, string | number | readonly string[]>();
  const removed = new Set<string>();
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      set.set(name, value);
      removed.delete(name);
    },
    removeHeader(name: string) {
      set.delete(name);
      removed.add(name);
    },
  };
  let finished = false;
  helmet(options)({} as never, recorder as unknown as ServerResponse, (error?: unknown) => {
    if (error !== undefined && error !== null) throw error;
    finished = true;
  });
  // Helmet's middleware calls back synchronously; a later version that did not would set nothing here.
  if (!finished) throw new Error('Helmet did not set its headers synchronously');
  return { set: [...set], removed: [...removed] };
}
