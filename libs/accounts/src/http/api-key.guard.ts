import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { FastifyRequest } from 'fastify';
import { ForbiddenError, UnauthorizedError } from '../../../core/src/errors';
import { ACCOUNT_FROM_PATH, IS_PUBLIC, READ_ONLY_SAFE } from '../../../http/src/account-context';
import { bearerTokenHash } from '../../../http/src/bearer';
import { ApiKeyLookup } from '../read/api-key-lookup';
import { ApiKeyDoc } from '../read/api-keys.projection';

/** What a route's decorators say about its auth, read once per handler rather than per request. */
interface RouteAuth {
  isPublic: boolean;
  accountFromPath: string | undefined;
  readOnlySafe: boolean;
}

const BEARER = /^bearer[ \t]+([\x21-\x7e]{1,512})[ \t]*$/i;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/**
 * Authorization → key (by SHA-256) → account (header, alias header, or path) → role. Controllers
 * receive the resulting AccountContext and filter every query by its account.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  private readonly routes = new WeakMap<object, RouteAuth>();

  constructor(
    private readonly reflector: Reflector,
    private readonly keys: ApiKeyLookup,
  ) {}

  /** Synchronous when the key was looked up within the last second (nearly always): no promise per request. */
  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const route = this.routeAuth(context);
    if (route.isPublic) return true;
    const request = context.switchToHttp().getRequest<FastifyRequest>();

    const hash = this.keyHashOf(request);
    if (hash === undefined) throw new UnauthorizedError('Missing or malformed Authorization header; expected "Bearer <API key>"');
    const cached = this.keys.cached(hash);
    if (cached) return this.admit(request, route, cached);
    return this.keys.byHash(hash).then((key) => this.admit(request, route, key));
  }

  /** The SHA-256 of the bearer token (as hashApiKey, shared with the rate limit that hashed it a moment ago). */
  private keyHashOf(request: FastifyRequest): string | undefined {
    const match = BEARER.exec(request.headers.authorization ?? '');
    return match ? bearerTokenHash(request, match[1]) : undefined;
  }

  private admit(request: FastifyRequest, route: RouteAuth, key: ApiKeyDoc | null): boolean {
    if (!key || key.revoked) throw new UnauthorizedError('Unknown or revoked API key');

    const pathParam = route.accountFromPath;
    const requested = pathParam
      ? (request.params as Record<string, string | undefined>)[pathParam]
      : (header(request, 'x-service-account') ?? header(request, 'x-checkly-account'));
    let accountId: string;
    if (requested !== undefined) {
      const granted = key.accountIds.find((id) => id.toLowerCase() === requested.toLowerCase());
      if (!granted) throw new ForbiddenError('This API key may not act on that account');
      accountId = granted;
    } else if (key.accountIds.length === 1) {
      accountId = key.accountIds[0];
    } else {
      throw new ForbiddenError('This API key grants several accounts; name one in the x-service-account header');
    }

    if (key.role === 'READ_ONLY' && !SAFE_METHODS.has(request.method) && !route.readOnlySafe) {
      throw new ForbiddenError('This API key is read-only');
    }
    request.account = { accountId, keyId: key.id, keyName: key.name, role: key.role, requestId: String(request.id) };
    return true;
  }

  private routeAuth(context: ExecutionContext): RouteAuth {
    const handler = context.getHandler();
    let route = this.routes.get(handler);
    if (!route) {
      const targets = [handler, context.getClass()];
      route = {
        isPublic: this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets) === true,
        accountFromPath: this.reflector.getAllAndOverride<string | undefined>(ACCOUNT_FROM_PATH, targets),
        readOnlySafe: this.reflector.getAllAndOverride<boolean>(READ_ONLY_SAFE, targets) === true,
      };
      this.routes.set(handler, route);
    }
    return route;
  }
}
