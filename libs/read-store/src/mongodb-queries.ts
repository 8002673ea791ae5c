import type { Document } from 'mongodb';
import { CheckedFilter, PageSegment } from './collection-schema';

const RANGE = { gt: '$gt', gte: '$gte', lt: '$lt', lte: '$lte' } as const;

/** Where a document field lives in a stored record. */
export function path(field: string): string {
  return field === 'id' ? '_id' : `doc.${field}`;
}

/** A checked filter as a query on the stored `{_id, doc}` records. */
export function filterQuery(filter: CheckedFilter): Document {
  const key = path(filter.field);
  switch (filter.op) {
    case 'eq':
    // On an array field, equality with a scalar matches any element.
    case 'contains':
      return { [key]: filter.value };
    case 'in':
      return { [key]: { $in: filter.value } };
    default:
      return { [key]: { [RANGE[filter.op]]: filter.value } };
  }
}

/** One segment of a keyset page (see pageSegments) as a query; null for no bound. */
export function segmentQuery(segment: PageSegment, sortField: string, asc: boolean): Document | null {
  const key = path(sortField);
  const next = asc ? '$gt' : '$lt';
  switch (segment.kind) {
    case 'all':
      return null;
    case 'after':
      // The bare range term bounds the index scan; the $or only sorts out ties.
      return {
        [key]: { [`${next}e`]: segment.value },
        $or: [{ [key]: { [next]: segment.value } }, { _id: { [next]: segment.id } }],
      };
    case 'nulls':
      return segment.afterId === undefined ? { [key]: null } : { [key]: null, _id: { [next]: segment.afterId } };
    case 'values':
      return { [key]: { $ne: null } };
    case 'afterId':
      return { _id: { [next]: segment.id } };
  }
}
