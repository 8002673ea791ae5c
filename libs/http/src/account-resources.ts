import { FastifyReply } from 'fastify';
import { NotFoundError } from '../../core/src/errors';
import { PageAfter } from '../../read-store/src/read-store.port';
import { setEtag } from './etag';
import { CursorCodec, Page, parseLimit } from './pagination';

/** The found resource with its stream revision as the ETag; nothing found is a 404 "<what> not found". */
export function withEtag<T extends { revision: bigint | number | null }>(reply: FastifyReply, found: T | null | undefined, what: string): T {
  if (!found) throw new NotFoundError(`${what} not found`);
  setEtag(reply, found.revision);
  return found;
}

/**
 * One page of a list ordered by creation (newest first), behind a cursor bound to `scope`: `limit` and
 * `nextId` are checked in that order, and `rows` answers up to one row more than `limit` (so a next page shows).
 */
export async function pageByCreation<T extends { id: string; created_at: string }>(
  cursors: CursorCodec,
  scope: string,
  query: { limit?: string; nextId?: string },
  rows: (limit: number, after: PageAfter | undefined) => Promise<T[]>,
): Promise<Page<unknown>> {
  const limit = parseLimit(query.limit);
  const found = await rows(limit, cursors.decode(scope, query.nextId));
  return cursors.page(scope, found, limit, (row) => ({ value: row.created_at, id: row.id }));
}
