import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { FastifyRequest } from 'fastify';
import { ForbiddenError, UnauthorizedError } from '../../../core/src/errors';
import { ACCOUNT_FROM_PATH, IS_PUBLIC, READ_ONLY_SAFE } from '../../../http/src/account-context';
import { hashApiKey } from '../domain/api-key-secret';
import { ApiKeyLookup } from '../read/api-key-lookup';

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
  constructor(
    private readonly reflector: Reflector,
    private readonly keys: ApiKeyLookup,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets)) return true;
    const request = context.switchToHttp().getRequest<FastifyRequest>();

    const match = BEARER.exec(request.headers.authorization ?? '');
    if (!match) throw new UnauthorizedError('Missing or malformed Authorization header; expected "Bearer <API key>"');
    const key = await this.keys.byHash(hashApiKey(match[1]));
    if (!key || key.revoked) throw new UnauthorizedError('Unknown or revoked API key');

    const pathParam = this.reflector.getAllAndOverride<string | undefined>(ACCOUNT_FROM_PATH, targets);
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

    const readOnlySafe = this.reflector.getAllAndOverride<boolean>(READ_ONLY_SAFE, targets);
    if (key.role === 'READ_ONLY' && !SAFE_METHODS.has(request.method) && !readOnlySafe) {
      throw new ForbiddenError('This API key is read-only');
    }
    request.account = { accountId, keyId: key.id, keyName: key.name, role: key.role, requestId: String(request.id) };
    return true;
  }
}
