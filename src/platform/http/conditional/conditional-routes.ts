import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction, RouteOptions } from 'fastify';
import { noneMatchHits, parseTagList, readTag, versionTag } from './entity-tags.js';
import { addHeaderParameter, addResponses, addSuccessHeaders } from '../route-documentation.js';

/**
 * Conditional requests for the routes that declare them (route-config.ts): `etag` on a single-resource
 * read, `ifMatch` on a change of a versioned resource. Attached per route, so every other route runs none of
 * this. The If-Match comparison itself is the service's, under the row lock (preconditions.ts).
 */
export function attachConditionalRequests(route: RouteOptions, requireIfMatch: boolean): void {
  const config = route.config ?? {};
  if (config.etag !== true && config.ifMatch !== true) return;
  const reads = config.etag === true;
  route.preHandler = [...[route.preHandler ?? []].flat(), reads ? conditionsOfRead : conditionsOfChange(requireIfMatch)];
  route.onSend = [...[route.onSend ?? []].flat(), reads ? tagRead : tagChange];
  document(route, reads);
}

function conditionsOfRead(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
  request.conditions = { ifMatch: null, required: false, version: null };
  done();
}

function conditionsOfChange(required: boolean) {
  return function conditionsOfChange(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
    request.conditions = { ifMatch: parseTagList(request.headers['if-match']), required, version: null };
    done();
  };
}

/** A read's ETag is its version and the digest of the body served; If-None-Match on it answers 304, no body. */
function tagRead(request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (error: null, payload: unknown) => void): void {
  if (reply.statusCode !== 200 || (typeof payload !== 'string' && !Buffer.isBuffer(payload))) return done(null, payload);
  const tag = readTag(request.conditions?.version ?? null, payload);
  reply.header('etag', tag);
  if (!noneMatchHits(request.headers['if-none-match'], tag)) return done(null, payload);
  reply.code(304);
  reply.removeHeader('content-type');
  reply.removeHeader('content-length');
  done(null, '');
}

/** A change's answer carries the version it left, which the next If-Match may name. */
function tagChange(request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (error: null, payload: unknown) => void): void {
  const version = request.conditions?.version ?? null;
  if (version !== null && reply.statusCode >= 200 && reply.statusCode < 300) reply.header('etag', versionTag(version));
  done(null, payload);
}

const ETAG_HEADER = {
  etag: {
    type: 'string',
    description: 'Strong entity tag of the resource: send it in If-None-Match on a read, in If-Match on a change',
    example: '"7.Zk3q0Rb1mVw2XoH8aQk1Lg"',
  },
};

function document(route: RouteOptions, reads: boolean): void {
  if (reads) {
    addHeaderParameter(route, 'if-none-match', {
      type: 'string',
      description: 'The ETag of the copy you hold: 304 Not Modified, without a body, while it is still current',
      examples: ['"7.Zk3q0Rb1mVw2XoH8aQk1Lg"'],
    });
    addSuccessHeaders(route, ETAG_HEADER);
    addResponses(route, { 304: { description: 'Not modified: the copy named by If-None-Match is current (no body)', type: 'null' } });
    return;
  }
  addHeaderParameter(route, 'if-match', {
    type: 'string',
    description:
      'The ETag you last read: the change applies only if the resource is still at that version (else 412, nothing changed). ' +
      'Mandatory when the service runs with REQUIRE_IF_MATCH=true (428 without it).',
    examples: ['"7"'],
  });
  addSuccessHeaders(route, { etag: { ...ETAG_HEADER.etag, description: 'The resource\'s new ETag, for the next If-Match', example: '"8"' } });
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
