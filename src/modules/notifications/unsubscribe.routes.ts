import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { originOf } from '../../platform/auth/principal.js';
import type { Executor } from '../../platform/db/schema.js';
import { API_PREFIX } from '../../platform/http/api-prefix.js';
import { limitByAddress, type RateLimiter } from '../../platform/http/rate-limit/rate-limit.hook.js';
import { UNSUBSCRIBE_PATH, unsubscribedPage, unsubscribePage } from './notification-mail.js';
import { unsubscribePageSchema, unsubscribeSchema } from './unsubscribe.schemas.js';
import { createUnsubscribeService } from './unsubscribe.service.js';

const FORM_LIMIT_BYTES = 1024;

/**
 * A browser submitting the page's form asks for HTML (and not JSON); a mail client's one-click POST asks for
 * neither, and an API client for JSON: both keep the JSON answer.
 */
const wantsPage = (accept: string | undefined) => accept !== undefined && /\btext\/html\b/i.test(accept) && !/\bapplication\/json\b/i.test(accept);

/**
 * The one public route of the notifications (RFC 8058), outside the /api/v1 gate: a mail client or a person
 * following a mail's link has no bearer token; the signed token of the link is the authority. Counted per
 * address. app.ts mounts it from the module.
 */
export async function registerUnsubscribeRoutes(app: FastifyInstance, deps: { db: Executor; limiter: RateLimiter; publicUrl: string }): Promise<void> {
  const service = createUnsubscribeService({ db: deps.db });
  await app.register(
    async (scope) => {
      limitByAddress(scope, deps.limiter);
      // What a mail client's one-click POST carries: List-Unsubscribe=One-Click as a form.
      scope.addContentTypeParser(/^application\/x-www-form-urlencoded(\s*;.*)?$/i, { parseAs: 'string', bodyLimit: FORM_LIMIT_BYTES }, (_request, body, done) =>
        done(null, Object.fromEntries(new URLSearchParams(body as string))),
      );
      const typed = scope.withTypeProvider<TypeBoxTypeProvider>();
      const path = UNSUBSCRIBE_PATH.slice(API_PREFIX.length);
      typed.post(path, { schema: unsubscribeSchema, config: { public: true } }, async (request, reply) => {
        const data = await service.unsubscribe(request.query.token, originOf(request));
        if (wantsPage(request.headers.accept)) {
          reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer').type('text/html; charset=utf-8');
          return reply.send(unsubscribedPage(data.kinds, deps.publicUrl));
        }
        return { data, message: 'Unsubscribed: these notifications no longer come by mail' };
      });
      typed.get(path, { schema: unsubscribePageSchema, config: { public: true } }, async (request, reply) => {
        const { kinds } = await service.check(request.query.token);
        const action = `${deps.publicUrl}${UNSUBSCRIBE_PATH}?token=${encodeURIComponent(request.query.token ?? '')}`;
        reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer').type('text/html; charset=utf-8');
        return unsubscribePage(kinds, action);
      });
    },
    { prefix: API_PREFIX },
  );
}
