import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import { Duplex } from 'node:stream';
import { ArgumentsHost, Catch, ExceptionFilter, HttpException } from '@nestjs/common';
import { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { NotFoundError, TooManyRequestsError, ValidationError, VigilError } from '../../core/src/errors';
import { ErrorBody, errorBody } from './error-body';
import { IdempotentReplay } from './idempotency';

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** Fastify's own client errors reach the filter as HttpExceptions; say them in words a client can act on. */
const STATUS_MESSAGES: Record<number, string> = {
  413: 'Body is larger than 1 MiB',
  415: 'Content-Type must be application/json',
};

/** The console's HTML forms are parsed with a limit of their own. */
const statusMessage = (status: number, url: string): string | undefined =>
  status === 413 && url.startsWith('/console/') ? 'Body is larger than 64 KB' : STATUS_MESSAGES[status];

/** What mapping an error needs of its request. */
interface ErrorRequest {
  id: unknown;
  method: string;
  url: string;
}

interface MappedError {
  body: ErrorBody;
  headers: Record<string, string>;
}

/**
 * Maps anything thrown to the one error shape. 5xx bodies say nothing of internals; the log has the
 * error under the same request id.
 */
function mapError(error: unknown, request: ErrorRequest, fastify: FastifyInstance | null): MappedError {
  const headers: Record<string, string> = {};
  if (error instanceof ValidationError) {
    return { body: errorBody(400, error.message, error.details.length > 0 ? { details: error.details } : {}), headers };
  }
  if (error instanceof VigilError && error.statusCode < 500) {
    if (error.statusCode === 401) headers['www-authenticate'] = 'Bearer';
    if (error instanceof TooManyRequestsError) headers['retry-after'] = String(Math.max(1, Math.ceil(error.retryAfterSeconds)));
    return { body: errorBody(error.statusCode, error.message), headers };
  }
  if (error instanceof HttpException) {
    const status = error.getStatus();
    if (status === 404) {
      const allowed = fastify ? allowedMethods(fastify, request) : [];
      if (allowed.length > 0) {
        headers.allow = allowed.join(', ');
        return { body: errorBody(405, `Method ${request.method} is not allowed here`), headers };
      }
      return { body: errorBody(404, 'Not found'), headers };
    }
    if (status < 500) return { body: errorBody(status, statusMessage(status, request.url) ?? httpExceptionMessage(error)), headers };
  }
  const fastifyError = error as Partial<FastifyError> | null;
  const status = fastifyError?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    const message = statusMessage(status, request.url) ?? fastifyError?.message ?? 'Bad request';
    return { body: errorBody(status, message), headers };
  }
  if (error instanceof VigilError && error.statusCode === 503) {
    headers['retry-after'] = '5';
    return { body: errorBody(503, 'A backing store is unavailable, try again shortly', { requestId: String(request.id) }), headers };
  }
  return { body: errorBody(500, 'Internal server error', { requestId: String(request.id) }), headers };
}

function httpExceptionMessage(error: HttpException): string {
  const response = error.getResponse();
  if (typeof response === 'string') return response;
  const message = (response as { message?: unknown }).message;
  if (Array.isArray(message)) return message.join('; ');
  return typeof message === 'string' ? message : error.message;
}

function allowedMethods(fastify: FastifyInstance, request: ErrorRequest): string[] {
  const path = request.url.split('?')[0];
  // A route takes this very method (a wildcard such as /docs/*): its 404 means "no such thing", not "wrong method".
  if (fastify.findRoute({ method: request.method as (typeof METHODS)[number], url: path }) !== null) return [];
  return otherMethods(fastify, request.method, path);
}

/** The methods but `method` that a route takes at `path` (one whose parameters `accept` admits), for an Allow header. */
export function otherMethods(fastify: FastifyInstance, method: string, path: string, accept: (params: object) => boolean = () => true): string[] {
  return METHODS.filter((other) => {
    const route = other === method ? null : fastify.findRoute({ method: other, url: path });
    return route !== null && accept(route.params ?? {});
  });
}

export function sendError(error: unknown, request: FastifyRequest, reply: FastifyReply, fastify: FastifyInstance | null): void {
  if (error instanceof IdempotentReplay) {
    const { statusCode, headers, payload } = error.stored;
    void reply.status(statusCode).headers({ ...headers, 'idempotent-replayed': 'true' }).send(payload);
    return;
  }
  const { body, headers } = mapError(error, request, fastify);
  if (body.statusCode >= 500) request.log.error({ err: error, reqId: request.id }, 'request failed');
  void reply.status(body.statusCode).headers(headers).type('application/json; charset=utf-8').send(body);
}

/**
 * Fastify's `frameworkErrors`: what its router refuses before any hook runs — a path parameter longer
 * than `maxParamLength` (it names nothing: 404, as a malformed id does) and a URL that cannot be decoded
 * (400) — in the one error shape, with the request id.
 */
export function routerError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  void reply.header('x-request-id', request.id);
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') return sendError(new NotFoundError('Not found'), request, reply, null);
  if (error.code === 'FST_ERR_BAD_URL') return sendError(new ValidationError('The URL is not valid (a malformed percent-encoding)'), request, reply, null);
  sendError(error, request, reply, null);
}

/**
 * Fastify's `clientErrorHandler`: a request Node's HTTP parser refused (bytes that are not HTTP, headers
 * too large, a request that took too long), answered in the one error shape with a request id of its own,
 * then the connection closed (nothing after the bad bytes can be trusted).
 */
export function clientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const status = error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
  const message = status === 408 ? 'The request took too long to arrive' : status === 431 ? 'The request headers are too large' : 'The request is not well-formed HTTP';
  const body = JSON.stringify(errorBody(status, message));
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `x-request-id: ${randomUUID()}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

/**
 * Every error ends here: Nest routes its own (guards, pipes, handlers, unknown routes) and, through the
 * error handler it installs on Fastify, Fastify's too (body parsing, size, content type).
 */
@Catch()
export class VigilExceptionFilter implements ExceptionFilter {
  constructor(private readonly fastify: FastifyInstance) {}

  catch(error: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    sendError(error, http.getRequest<FastifyRequest>(), http.getResponse<FastifyReply>(), this.fastify);
  }
}
