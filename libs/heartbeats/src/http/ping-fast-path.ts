import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { isUuid } from '../../../core/src/ids';
import { EarlyHandler } from '../../../http/src/early-requests';
import { mapError } from '../../../http/src/error-filter';
import { requestIdFor } from '../../../http/src/request-id';
import { logRequest } from '../../../http/src/request-log';
import { isLinkPreviewBot } from '../domain/link-preview-bots';
import { answerPing, headerValue, JSON_TYPE, PING_PATHS, PingAnswer, PingDeps } from './ping.routes';

/** Told of every answer, with the route template it stands for (request metrics). */
export type AnswerObserver = (method: string, route: string, status: number, seconds: number) => void;

/**
 * `/ping/{token}` or `/heartbeats/ping/{token}`, an optional trailing slash (the router ignores one)
 * and an optional query. Anything else about the URL (encoded characters, another case, a longer
 * token) is the Fastify route's to judge.
 */
const PING_URL = /^\/(?:heartbeats\/)?ping\/([0-9A-Fa-f-]{36})\/?(?:\?|$)/;

/** Whether the request says it carries no body (a body is the Fastify route's: its size limit, its parser). */
function bodiless(request: IncomingMessage): boolean {
  const { headers } = request;
  if (headers['transfer-encoding'] !== undefined) return false;
  const length = headers['content-length'];
  return length === undefined || length === '0';
}

/**
 * The common ping — a bodyless GET or POST of a token this process holds in memory, from something
 * other than a link-preview bot — answered straight from Node's request event (EarlyRequests),
 * without Fastify's routing, hooks and reply: the same rate limit, the same append (the 200 still
 * waits for the commit), the same status, headers and body as the route in ping.routes.ts, the same
 * request log line. That is ~3 µs of CPU less per ping (docs/benchmarks.md). Every other request to
 * these paths — a body, another method, an unknown or not yet loaded token, a bot — is not claimed,
 * and the Fastify route answers it.
 */
export function pingFastPath(deps: PingDeps, logger: Logger, observe?: AnswerObserver): EarlyHandler {
  return (request, response) => {
    const method = request.method;
    if (method !== 'GET' && method !== 'POST') return false;
    const match = PING_URL.exec(request.url ?? '');
    if (!match || !bodiless(request)) return false;
    const token = match[1].toLowerCase();
    if (!isUuid(token)) return false;
    const userAgent = headerValue(request.headers['user-agent']);
    if (isLinkPreviewBot(userAgent)) return false;
    const entry = deps.intake.peek(token);
    if (!entry) return false;

    const requestId = requestIdFor(request);
    const source = headerValue(request.headers.origin) ?? headerValue(request.headers.referer);
    answerPing(deps, entry, token, { source, userAgent, requestId })
      .then(
        (answer) => send(response, requestId, answer),
        (error: unknown) => {
          const { body, headers } = mapError(error, { id: requestId, method, url: request.url ?? '' }, null);
          if (body.statusCode >= 500) logger.error({ err: error, reqId: requestId }, 'request failed');
          send(response, requestId, { status: body.statusCode, headers, contentType: JSON_TYPE, body: JSON.stringify(body) });
        },
      )
      .catch((error: unknown) => {
        // Writing the answer failed: the connection is all that is left to end.
        logger.error({ err: error, reqId: requestId }, 'ping answer failed');
        response.destroy();
      });
    const logging = logger.isLevelEnabled('info');
    if (logging || observe) {
      const started = performance.now();
      response.once('finish', () => {
        const ms = performance.now() - started;
        observe?.(method, PING_PATHS[match[0].startsWith('/heartbeats/') ? 1 : 0], response.statusCode, ms / 1000);
        if (logging) logRequest(logger, { reqId: requestId, method, url: request.url ?? '', status: response.statusCode, ms });
      });
    }
    return true;
  };
}

/** The answer with the headers Fastify would add: the request id first, then the answer's own, type and length. */
function send(response: ServerResponse, requestId: string, answer: PingAnswer): void {
  // The client went away while the event committed: nothing to answer.
  if (response.destroyed) return;
  response.writeHead(answer.status, {
    'x-request-id': requestId,
    ...answer.headers,
    'content-type': answer.contentType,
    'content-length': Buffer.byteLength(answer.body),
  });
  response.end(answer.body);
}
