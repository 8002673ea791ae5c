import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { NotFoundError, VigilError } from '../../../core/src/errors';
import { isUuid } from '../../../core/src/ids';
import { otherMethods } from '../../../http/src/error-filter';

export class MethodNotAllowedError extends VigilError {
  readonly statusCode = 405;
}

/**
 * Checks the ids in a status page path before the body is validated, so a malformed id is a 404
 * whatever the body holds. `/v1/status-pages/services` and `/v1/status-pages/incidents` are static
 * routes Fastify prefers to `/:statusPageId`, but only for the methods they declare: a PUT or DELETE
 * there lands here. That path exists, so it is a 405 with the methods its static route takes.
 */
@Injectable()
export class PageIdGuard implements CanActivate {
  constructor(private readonly adapter: HttpAdapterHost) {}

  canActivate(context: ExecutionContext): boolean {
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const params = (request.params ?? {}) as Record<string, string | undefined>;
    const pageId = params.statusPageId;
    if (pageId !== undefined && !isUuid(pageId)) {
      // Methods a route without the :statusPageId parameter takes on this very path.
      const fastify = this.adapter.httpAdapter.getInstance<FastifyInstance>();
      const allowed = otherMethods(fastify, request.method, request.url.split('?')[0], (params) => !('statusPageId' in params));
      if (allowed.length === 0) throw new NotFoundError('Status page not found');
      void http.getResponse<FastifyReply>().header('allow', allowed.join(', '));
      throw new MethodNotAllowedError(`Method ${request.method} is not allowed here`);
    }
    if (params.subscriptionId !== undefined && !isUuid(params.subscriptionId)) throw new NotFoundError('Subscription not found');
    return true;
  }
}
