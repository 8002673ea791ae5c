import { createServer, IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';

/** Answers a request it claims (returns true) and leaves every other one alone (false), without reading it. */
export type EarlyHandler = (request: IncomingMessage, response: ServerResponse) => boolean;

/** The server options Fastify hands its serverFactory and would otherwise set on the server it creates itself. */
interface ServerTimeouts {
  keepAliveTimeout?: number;
  requestTimeout?: number;
  connectionTimeout?: number;
  maxRequestsPerSocket?: number;
}

/**
 * Requests Node hands the HTTP server before Fastify routes them. A handler added here answers the
 * requests it claims; every other request goes to Fastify exactly as before. It is for one hot path
 * whose common case needs none of the framework's per-request work (pings: see ping-fast-path.ts);
 * everything unusual about such a request is left to its Fastify route.
 *
 * Installed through Fastify's documented `serverFactory`, so the server is the one Fastify listens on
 * and closes. Once Fastify starts closing (`closing`), nothing is claimed: Fastify answers 503.
 */
export class EarlyRequests {
  private readonly handlers: EarlyHandler[] = [];
  private closed = false;

  /** `onError` hears of a handler that threw (the request then goes to Fastify, or ends if answered already). */
  constructor(private readonly onError: (error: unknown) => void = () => {}) {}

  /** For Fastify's `serverFactory` option. */
  readonly serverFactory = (fastifyHandler: RequestListener, options: ServerTimeouts): Server => {
    const server = createServer((request, response) => {
      if (!this.closed) {
        try {
          for (const handler of this.handlers) if (handler(request, response)) return;
        } catch (error) {
          this.onError(error);
          // A handler that failed before answering leaves the request to Fastify, which answers every one.
          if (response.headersSent) {
            response.destroy();
            return;
          }
        }
      }
      fastifyHandler(request, response);
    });
    // What Fastify sets on an HTTP/1 server it creates itself (keep-alive 72 s, the request and connection
    // timeouts, requests per socket).
    if (options.keepAliveTimeout !== undefined) server.keepAliveTimeout = options.keepAliveTimeout;
    if (options.requestTimeout !== undefined) server.requestTimeout = options.requestTimeout;
    if (options.connectionTimeout !== undefined) server.setTimeout(options.connectionTimeout);
    if (options.maxRequestsPerSocket !== undefined && options.maxRequestsPerSocket > 0) server.maxRequestsPerSocket = options.maxRequestsPerSocket;
    return server;
  };

  add(handler: EarlyHandler): void {
    this.handlers.push(handler);
  }

  /** From now on every request goes to Fastify (which answers 503 while it closes). */
  closing(): void {
    this.closed = true;
  }
}
