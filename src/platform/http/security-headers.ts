import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/**
 * The headers that keep a browser from framing, sniffing or leaking what this service answers, on every
 * answer (the API's JSON, the console, the reference at /docs, the provider's /auth/v1), set by
 * @fastify/helmet in one onRequest hook.
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
  await app.register(helmet, {
    global: true,
    contentSecurityPolicy: { useDefaults: false, directives: CONTENT_SECURITY_POLICY },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    hsts: https ? { maxAge: HSTS_MAX_AGE_SECONDS, includeSubDomains: true } : false,
    // The API is called from other origins' servers, not embedded by their pages: nothing to isolate.
    crossOriginEmbedderPolicy: false,
  });
}
