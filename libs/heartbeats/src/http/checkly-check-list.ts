import { ValidationError, ViolationDetail } from '../../../core/src/errors';
import { CheckStatusView } from '../read/check-directory';
import { CatalogCheck } from '../read/other-checks';

/** The most checks one Checkly-style listing considers (all kinds together). */
export const CATALOG_MAX = 5000;

export interface CatalogFilter {
  page: number;
  limit: number;
  checkType: string | null;
  tags: string[];
  search: string | null;
  status: 'passing' | 'failing' | 'degraded' | null;
}

type Raw = Record<string, string | string[] | undefined>;
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[v.length - 1] : v);

/** Checkly's list parameters (`page`, `limit`, `checkType`, `tag`, `search`, `status`), each checked. */
export function parseCatalogFilter(query: Raw): CatalogFilter {
  const details: ViolationDetail[] = [];
  const int = (key: string, fallback: number, max: number) => {
    const raw = one(query[key]);
    if (raw === undefined || raw === '') return fallback;
    if (!/^\d{1,6}$/.test(raw) || Number(raw) < 1 || Number(raw) > max) details.push({ path: key, message: `must be an integer from 1 to ${max}` });
    return Number(raw);
  };
  const status = one(query.status) ?? null;
  if (status !== null && !['passing', 'failing', 'degraded'].includes(status)) details.push({ path: 'status', message: 'must be passing, failing or degraded' });
  const tagsRaw = query.tag;
  const tags = (Array.isArray(tagsRaw) ? tagsRaw : tagsRaw === undefined ? [] : [tagsRaw]).flatMap((t) => t.split(',')).filter((t) => t !== '');
  const filter = {
    page: int('page', 1, 100_000),
    limit: int('limit', 10, 100),
    checkType: (one(query.checkType) ?? '').toUpperCase() || null,
    tags,
    search: one(query.search)?.toLowerCase() || null,
    status: status as CatalogFilter['status'],
  };
  if (details.length > 0) throw ValidationError.of(details);
  return filter;
}

const statusWord = (s: CheckStatusView | undefined) => (!s ? null : s.hasFailures || s.hasErrors ? 'failing' : s.isDegraded ? 'degraded' : 'passing');

/** One page of every kind of check, newest first, and the total matching, as Checkly answers `GET /v1/checks?page=`. */
export function catalogPage(checks: CatalogCheck[], statuses: CheckStatusView[], filter: CatalogFilter): { page: CatalogCheck[]; total: number; first: number } {
  const byId = new Map(statuses.map((s) => [s.checkId, s]));
  const matching = checks
    .filter((c) => filter.checkType === null || c.checkType === filter.checkType)
    .filter((c) => filter.tags.every((t) => c.tags.includes(t)))
    .filter((c) => filter.search === null || c.name.toLowerCase().includes(filter.search))
    .filter((c) => filter.status === null || statusWord(byId.get(c.id)) === filter.status)
    .sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0));
  const first = (filter.page - 1) * filter.limit;
  return { page: matching.slice(first, first + filter.limit), total: matching.length, first };
}
