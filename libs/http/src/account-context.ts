import { createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';

export type Role = 'READ_ONLY' | 'READ_WRITE' | 'ADMIN';
export const ROLES: readonly Role[] = ['READ_ONLY', 'READ_WRITE', 'ADMIN'];

/** Who is calling, resolved once per request by the auth guard; every query is filtered by accountId. */
export interface AccountContext {
  accountId: string;
  keyId: string;
  keyName: string | null;
  role: Role;
  requestId: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    account?: AccountContext;
  }
}

export const IS_PUBLIC = 'vigil:public';
/** Marks a route that needs no API key (ping, public pages, health). */
export const Public = () => SetMetadata(IS_PUBLIC, true);

export const ACCOUNT_FROM_PATH = 'vigil:account-from-path';
/** The account comes from this path parameter instead of the x-service-account header. */
export const AccountFromPath = (param: string) => SetMetadata(ACCOUNT_FROM_PATH, param);

export const Account = createParamDecorator((_: unknown, ctx: ExecutionContext): AccountContext => {
  const request = ctx.switchToHttp().getRequest<{ account?: AccountContext }>();
  if (!request.account) throw new Error('Account used on a route without authentication');
  return request.account;
});

export const READ_ONLY_SAFE = 'vigil:read-only-safe';
/** A POST that reads only (the AI agent): READ_ONLY keys may call it. */
export const ReadOnlySafe = () => SetMetadata(READ_ONLY_SAFE, true);
