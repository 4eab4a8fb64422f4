import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction, RouteOptions } from 'fastify';
import { stateTag, type Expectation, type ResourceState } from '../../versions/resource-state.js';
import { bodyTag, noneMatchHits } from './entity-tags.js';
import { ifMatchExpectation } from './if-match.js';
import { addHeaderParameter, addResponses, addSuccessHeaders } from '../route-documentation.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** A change's If-Match as an expectation (routes declaring `ifMatch`); null elsewhere or without one. */
    expectation: Expectation | null;
    /** The state the answer shows, set by `answer()` (conditional/answers.ts); the platform writes it as the ETag. */
    servedState: ResourceState | null;
  }
}

/**
 * Conditional requests for the routes that declare them (route-config.ts): `etag` on a single-resource
 * read, `ifMatch` on a change of a versioned resource. Attached per route, so every other route runs none of
 * this. The If-Match comparison itself is the service's, under the row lock (it is handed the expectation
 * through `termsOf(request)`); the state it answers comes back through `answer()`.
 */
export function attachConditionalRequests(route: RouteOptions, requireIfMatch: boolean): void {
  const config = route.config ?? {};
  if (config.etag !== true && config.ifMatch !== true) return;
  const reads = config.etag === true;
  if (!reads) route.preHandler = [...[route.preHandler ?? []].flat(), expectationOf(requireIfMatch)];
  route.onSend = [...[route.onSend ?? []].flat(), reads ? tagRead : tagChange];
  document(route, reads);
}

function expectationOf(required: boolean) {
  return function expectationOf(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
    request.expectation = ifMatchExpectation(request.headers['if-match'], required);
    done();
  };
}

/**
 * A read's ETag is the state the service served (or, for a resource without versions, a digest of the body);
 * If-None-Match on it answers 304 without a body.
 */
function tagRead(request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (error: null, payload: unknown) => void): void {
  if (reply.statusCode !== 200 || (typeof payload !== 'string' && !Buffer.isBuffer(payload))) return done(null, payload);
  const tag = request.servedState === null ? bodyTag(payload) : stateTag(request.servedState);
  reply.header('etag', tag);
  // The tag names the record's state, the same for every caller, while a read also says what its caller may do
  // (abilities). A browser's cache revalidating one person's stored read with this tag would show it to the next
  // person signed in on that browser (Chromium does, whatever Vary says): reads are not stored. A client that
  // keeps the tag itself still gets its 304.
  reply.header('vary', 'Authorization');
  reply.header('cache-control', 'private, no-store');
  if (!noneMatchHits(request.headers['if-none-match'], tag)) return done(null, payload);
  reply.code(304);
  reply.removeHeader('content-type');
  reply.removeHeader('content-length');
  done(null, '');
}

/** A change's answer carries the state it left: the tag the next read answers, and the next If-Match may name. */
function tagChange(request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (error: null, payload: unknown) => void): void {
  const state = request.servedState;
  if (state !== null && reply.statusCode >= 200 && reply.statusCode < 300) reply.header('etag', stateTag(state));
  done(null, payload);
}

const ETAG_HEADER = {
  etag: {
    type: 'string',
    description:
      'Strong entity tag of the resource\'s state: the same on a read and on the answer to a change. Send it in If-None-Match on a read, in If-Match on a change',
    example: '"7"',
  },
};

function document(route: RouteOptions, reads: boolean): void {
  if (reads) {
    addHeaderParameter(route, 'if-none-match', {
      type: 'string',
      description: 'The ETag of the copy you hold: 304 Not Modified, without a body, while it is still current',
      examples: ['"7"'],
    });
    addSuccessHeaders(route, ETAG_HEADER);
    addResponses(route, { 304: { description: 'Not modified: the copy named by If-None-Match is current (no body)', type: 'null' } });
    return;
  }
  addHeaderParameter(route, 'if-match', {
    type: 'string',
    description:
      'The ETag you last read or were answered: the change applies only if the resource is still in that state (else 412, nothing changed). ' +
      'Mandatory when the service runs with REQUIRE_IF_MATCH=true (428 without it).',
    examples: ['"7"'],
  });
  addSuccessHeaders(route, { etag: { ...ETAG_HEADER.etag, description: 'The resource\'s new ETag: what its next read answers, for the next If-Match', example: '"8"' } });
  addResponses(route, {
    412: {
      $ref: 'ErrorBody',
      description:
        'PRECONDITION_FAILED: the resource changed since the ETag in If-Match, and nothing was changed; details.current_etag is its ETag now. ' +
        'Example: {"error":"The resource has changed since the version in If-Match; read it again","code":"PRECONDITION_FAILED",' +
        '"request_id":"7b6c2a90-…","details":{"current_etag":"\\"8\\""}}',
    },
    428: {
      $ref: 'ErrorBody',
      description: 'PRECONDITION_REQUIRED: the service requires If-Match on changes (REQUIRE_IF_MATCH=true)',
    },
  });
}
