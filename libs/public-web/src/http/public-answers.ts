import { FastifyReply, FastifyRequest } from 'fastify';
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';

/** A finished public response: its bytes and the headers that belong to them. */
export interface PublicAnswer {
  status: number;
  type: string;
  body: Buffer;
  etag: string;
  headers: Record<string, string>;
  /** The body gzipped, made the first time a client that accepts gzip asks for it. */
  gzip?: Buffer;
}

/** Smaller bodies are not worth a Content-Encoding. */
const GZIP_MIN_BYTES = 1024;
const ACCEPTS_GZIP = /(?:^|,)\s*gzip\s*(?:,|$|;\s*q=(?!0(?:\.0*)?\s*(?:,|$)))/i;

export function answerOf(status: number, type: string, body: string, headers: Record<string, string>): PublicAnswer {
  const bytes = Buffer.from(body, 'utf8');
  const etag = `"${createHash('sha1').update(bytes).digest('base64url')}"`;
  return { status, type, body: bytes, etag, headers };
}

/** Whether If-None-Match names this ETag (a list, weak forms and `*` included). */
export function notModified(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/**
 * Sends an answer with the headers every public response carries: gzipped when it is worth it and the
 * client accepts it (its own ETag, as a different representation), 304 when If-None-Match names it.
 */
export function sendAnswer(request: FastifyRequest, reply: FastifyReply, answer: PublicAnswer, conditional = true): FastifyReply {
  const compressible = answer.body.length >= GZIP_MIN_BYTES;
  const gzip = compressible && ACCEPTS_GZIP.test(String(request.headers['accept-encoding'] ?? ''));
  const etag = gzip ? `${answer.etag.slice(0, -1)}-gz"` : answer.etag;
  void reply.headers({ 'x-content-type-options': 'nosniff', 'referrer-policy': 'strict-origin-when-cross-origin', etag, ...answer.headers });
  if (compressible) void reply.header('vary', 'Accept-Encoding');
  if (conditional && answer.status === 200 && notModified(request.headers['if-none-match'], etag)) {
    return reply.status(304).send();
  }
  if (!gzip) return reply.status(answer.status).type(answer.type).send(answer.body);
  answer.gzip ??= gzipSync(answer.body);
  return reply.status(answer.status).type(answer.type).header('content-encoding', 'gzip').send(answer.gzip);
}
