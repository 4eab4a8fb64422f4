import type { FastifyServerOptions } from 'fastify';
import type { LogLevel } from '../../config.js';

/**
 * pino options: JSON lines with the request id; never an Authorization header, an API key, a cookie,
 * a password or a token. Request lines carry the path without its query string, where a mistaken
 * `?access_token=` would otherwise land in the log.
 */
export function loggerOptions(level: LogLevel): NonNullable<FastifyServerOptions['logger']> {
  return {
    level,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.apikey',
        'req.headers.cookie',
        '*.password',
        '*.refresh_token',
        '*.access_token',
        '*.token',
      ],
      censor: '[redacted]',
    },
    serializers: {
      req: (request: { method: string; url: string; ip?: string; routeOptions?: { config?: { operation?: string } } }) => ({
        method: request.method,
        path: request.url.split('?')[0],
        ip: request.ip,
        operation: request.routeOptions?.config?.operation,
      }),
    },
  };
}
