import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { originOf } from '../../../platform/auth/principal.js';
import { ProviderError, invalidRequest } from './provider.errors.js';
import { sessionFragment } from './provider.presenter.js';
import { verifyLinkSchema } from './provider.schemas.js';
import type { ProviderService } from './provider.service.js';
import type { SignInDevices } from './sign-in-devices.js';

/**
 * GET /auth/v1/verify: the link of an invitation or recovery mail, in Supabase's shape. The browser is sent
 * on to redirect_to with the session (or the error) in the URL fragment, which never reaches a server log.
 * A redirect_to off the allow-list is answered 400 here, never followed.
 */
export function registerVerifyLink(scope: FastifyInstance, service: ProviderService, devices: Pick<SignInDevices, 'rememberDevice'>): void {
  scope.withTypeProvider<TypeBoxTypeProvider>().get(
    '/verify',
    { schema: verifyLinkSchema, config: { public: true } },
    async (request, reply) => {
      const { token, type, redirect_to: requested } = request.query;
      const redirect = service.redirectFor(requested);
      if (token === undefined || token === '' || type === undefined) throw invalidRequest('token and type are required');
      reply.header('cache-control', 'no-store');
      reply.header('referrer-policy', 'no-referrer');
      let fragment: string;
      try {
        const session = await service.verify(type, token, originOf(request));
        // Following the mail's link proves its owner as a password does: this browser is theirs from now on.
        devices.rememberDevice(request, reply, session.user.id);
        fragment = sessionFragment(session, { type });
      } catch (error) {
        if (!(error instanceof ProviderError) || error.status !== 403) throw error;
        fragment = sessionFragment(error);
      }
      return reply.redirect(`${redirect.split('#')[0]}#${fragment}`, 303);
    },
  );
}
