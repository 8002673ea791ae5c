import { PageAfter, SortSpec } from './read-store.port';

/**
 * One index scan of a keyset page; "after" follows the sort direction. Neither SQL nor MongoDB
 * orders a null against a value inside a range condition, and nulls sort first, so a page whose
 * cursor and remainder straddle the null group is read as two scans, in this order.
 */
export type PageSegment =
  | { kind: 'all' }
  | { kind: 'after'; value: string | number; id: string }
  | { kind: 'nulls'; afterId?: string }
  | { kind: 'values' }
  | { kind: 'afterId'; id: string };

export function pageSegments(sort: SortSpec, after: PageAfter | undefined): PageSegment[] {
  if (!after) return [{ kind: 'all' }];
  if (sort.field === 'id') return [{ kind: 'afterId', id: after.id }];
  const asc = sort.direction === 'asc';
  if (after.value === null) {
    return asc ? [{ kind: 'nulls', afterId: after.id }, { kind: 'values' }] : [{ kind: 'nulls', afterId: after.id }];
  }
  const rest: PageSegment = { kind: 'after', value: after.value, id: after.id };
  return asc ? [rest] : [rest, { kind: 'nulls' }];
}
