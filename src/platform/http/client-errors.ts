import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { ERROR_STATUS, type ErrorCode } from '../errors/app-error.js';

/**
 * Requests Node's HTTP parser refuses before Fastify sees them (headers over the limit, a request that is not
 * HTTP, one too slow to arrive): answered in the contract's error shape with a request id, like every other
 * refusal, instead of Node's or Fastify's own body. The `clientErrorHandler` server option.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const code: ErrorCode =
    error.code === 'HPE_HEADER_OVERFLOW' ? 'HEADERS_TOO_LARGE' : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 'REQUEST_TIMEOUT' : 'BAD_REQUEST';
  const status = ERROR_STATUS[code];
  const requestId = randomUUID();
  const message =
    code === 'HEADERS_TOO_LARGE'
      ? 'Request headers are over the server\'s limit (16 KiB): send fewer or shorter headers'
      : code === 'REQUEST_TIMEOUT'
        ? 'The request did not arrive in time'
        : 'Malformed HTTP request';
  const body = JSON.stringify({ error: message, code, request_id: requestId });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${requestId}\r\n` +
        'X-Content-Type-Options: nosniff\r\n' +
        'Connection: close\r\n\r\n' +
        body,
    );
  }
  socket.destroy(error);
}
