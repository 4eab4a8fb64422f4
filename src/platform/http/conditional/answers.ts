import type { FastifyRequest } from 'fastify';
import type { ChangeTerms } from '../../versions/change-terms.js';
import type { Versioned } from '../../versions/resource-state.js';

/**
 * The two ends of a route on a versioned resource, so that handlers stay one call: what the request asks
 * of the change (its If-Match as an expectation, the unit of work an Idempotency-Key holds open), and the
 * body of the answer, whose state the platform writes as the ETag.
 */
export function termsOf(request: FastifyRequest): ChangeTerms {
  return { expected: request.expectation, work: request.requestWork === null ? null : request.requestWork.work };
}

export function answer<T>(request: FastifyRequest, result: Versioned<T>, message: string): { data: T; message: string };
export function answer<T>(request: FastifyRequest, result: Versioned<T>): { data: T };
export function answer<T>(request: FastifyRequest, result: Versioned<T>, message?: string): { data: T; message?: string } {
  request.servedState = result.state;
  return message === undefined ? { data: result.data } : { data: result.data, message };
}

/** A change whose answer has no body of its own (a removal) but leaves a state: `{ message }`. */
export function answerMessage(request: FastifyRequest, result: Versioned<unknown>, message: string): { message: string } {
  request.servedState = result.state;
  return { message };
}

/** A creation's answer: 201 with the record created and its message (typed against the route's 201 schema). */
export function created<Data, Sent>(reply: { code(statusCode: 201): { send(payload: { data: Data; message: string }): Sent } }, data: Data, message: string): Sent {
  return reply.code(201).send({ data, message });
}
