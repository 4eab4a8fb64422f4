import type { FastifyInstance } from 'fastify';

/**
 * The methods each path answers, learnt from the routes as they are registered, so that a request with
 * another method on a known path is told 405 with `Allow` (RFC 9110 15.5.6) instead of a 404 that says the
 * path does not exist. One pattern per route URL: `:param` matches one segment, `*` the rest.
 */
export interface AllowedMethods {
  /** The methods some route answers on this concrete path (HEAD beside GET); empty when no route matches. */
  of(path: string): string[];
}

export function trackAllowedMethods(app: FastifyInstance): AllowedMethods {
  const byPattern = new Map<string, { pattern: RegExp; methods: Set<string> }>();
  app.addHook('onRoute', (route) => {
    const url = route.url ?? route.path;
    let entry = byPattern.get(url);
    if (entry === undefined) {
      entry = { pattern: patternOf(url), methods: new Set() };
      byPattern.set(url, entry);
    }
    for (const method of [route.method].flat()) entry.methods.add(method.toUpperCase());
  });
  return {
    of(path) {
      const methods = new Set<string>();
      for (const { pattern, methods: own } of byPattern.values()) if (pattern.test(path)) for (const method of own) methods.add(method);
      if (methods.has('GET')) methods.add('HEAD');
      return [...methods].sort();
    },
  };
}

function patternOf(url: string): RegExp {
  const source = url
    .split('/')
    .map((segment) => (segment === '*' ? '.*' : segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}/?$`);
}
