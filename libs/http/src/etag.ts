import { FastifyReply } from 'fastify';
import { PreconditionFailedError } from '../../core/src/errors';

/** ETag of a resource: its stream revision. */
export function etagOf(revision: bigint | number): string {
  return `"${revision.toString()}"`;
}

export function setEtag(reply: FastifyReply, revision: bigint | number | null | undefined): void {
  if (revision !== null && revision !== undefined) void reply.header('ETag', etagOf(revision));
}

/**
 * Reads If-Match: a quoted revision (weak form tolerated). `*` means "any current version" and
 * checks nothing. Anything unparseable cannot match a revision, so it is a 412.
 */
export function parseIfMatch(header: string | string[] | undefined): bigint | undefined {
  if (header === undefined) return undefined;
  const value = (Array.isArray(header) ? header[0] : header).trim();
  if (value === '*') return undefined;
  const match = /^(?:W\/)?"(\d{1,18})"$/.exec(value);
  if (!match) throw new PreconditionFailedError();
  return BigInt(match[1]);
}
