import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { NotFoundError, VigilError } from '../../../core/src/errors';
import { isUuid } from '../../../core/src/ids';

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

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
      const allowed = this.staticMethods(request);
      if (allowed.length === 0) throw new NotFoundError('Status page not found');
      void http.getResponse<FastifyReply>().header('allow', allowed.join(', '));
      throw new MethodNotAllowedError(`Method ${request.method} is not allowed here`);
    }
    if (params.subscriptionId !== undefined && !isUuid(params.subscriptionId)) throw new NotFoundError('Subscription not found');
    return true;
  }

  /** Methods a route without the :statusPageId parameter takes on this very path. */
  private staticMethods(request: FastifyRequest): string[] {
    const fastify = this.adapter.httpAdapter.getInstance<FastifyInstance>();
    const path = request.url.split('?')[0];
    return METHODS.filter((method) => {
      if (method === request.method) return false;
      const route = fastify.findRoute({ method, url: path });
      return route !== null && !('statusPageId' in (route.params ?? {}));
    });
  }
}
