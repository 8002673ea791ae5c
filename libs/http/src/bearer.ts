import { createHash } from 'node:crypto';
import { FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    /** The SHA-256 (hex) of a bearer token this request carried, computed once for the rate limit and the API key guard. */
    bearerHash?: { token: string; hex: string };
  }
}

/** SHA-256 of a bearer token, hex: how API keys are stored, and how the rate limit keys its budgets. */
export function bearerTokenHash(request: FastifyRequest, token: string): string {
  const known = request.bearerHash;
  if (known && known.token === token) return known.hex;
  const hex = createHash('sha256').update(token, 'utf8').digest('hex');
  request.bearerHash = { token, hex };
  return hex;
}
