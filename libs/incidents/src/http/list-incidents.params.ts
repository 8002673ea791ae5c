import { ValidationError, ViolationDetail } from '../../../core/src/errors';
import { isUuid } from '../../../core/src/ids';
import { CursorCodec, parseLimit } from '../../../http/src/pagination';
import { PageAfter } from '../../../read-store/src/read-store.port';

interface ListIncidentsParams {
  limit: number;
  after: PageAfter | undefined;
  status?: 'open' | 'resolved';
  serviceId?: string;
  statusPageId?: string;
  /** Cursor scope: one per account and combination of filters. */
  scope: string;
}

const STATUSES = ['open', 'resolved'] as const;

/** Reads the list's query string, reporting every bad parameter in one 400. */
export function parseListIncidentsParams(query: Record<string, unknown>, accountId: string, cursors: CursorCodec): ListIncidentsParams {
  const details: ViolationDetail[] = [];
  const collect = <T>(read: () => T): T | undefined => {
    try {
      return read();
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      details.push(...error.details);
      return undefined;
    }
  };
  const id = (name: 'serviceId' | 'statusPageId'): string | undefined => {
    const value = query[name];
    if (value === undefined) return undefined;
    if (!isUuid(value)) {
      details.push({ path: name, message: `${name} must be a UUID` });
      return undefined;
    }
    return value.toLowerCase();
  };

  const limit = collect(() => parseLimit(query.limit));
  const status = query.status;
  if (status !== undefined && !STATUSES.includes(status as (typeof STATUSES)[number])) {
    details.push({ path: 'status', message: 'status must be open or resolved' });
  }
  const serviceId = id('serviceId');
  const statusPageId = id('statusPageId');
  const scope = `incidents:${accountId}:${String(status ?? '')}:${serviceId ?? ''}:${statusPageId ?? ''}`;
  const after = collect(() => cursors.decode(scope, query.nextId));
  if (details.length > 0) throw ValidationError.of(details);
  return {
    limit: limit!,
    after,
    scope,
    ...(status !== undefined && { status: status as 'open' | 'resolved' }),
    ...(serviceId !== undefined && { serviceId }),
    ...(statusPageId !== undefined && { statusPageId }),
  };
}
