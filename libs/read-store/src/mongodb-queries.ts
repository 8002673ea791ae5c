import type { Document } from 'mongodb';
import { ReadModelDoc } from '../../core/src/projection';
import { CheckedFilter, PageSegment } from './collection-schema';
import { DocWrite, StoredDoc } from './read-store.port';

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

/** A stored record as read, tagged with the part of a several-collection read it answers. */
export interface PartRecord {
  _id: string;
  revision: bigint;
  doc: ReadModelDoc | null;
  part: number;
}

/**
 * One aggregation reading the ids of every part (a collection each, by table name): the first part with ids
 * is the collection it runs on, the others come in through $unionWith. Null when no part asks for anything.
 */
export function unionPipeline(parts: readonly { table: string; ids: string[] }[]): { table: string; pipeline: Document[] } | null {
  const branches = parts.flatMap((part, index) =>
    part.ids.length === 0 ? [] : [{ table: part.table, stages: [{ $match: { _id: { $in: part.ids }, deleted: false } }, { $project: { revision: 1, doc: 1, part: { $literal: index } } }] }],
  );
  if (branches.length === 0) return null;
  const [first, ...rest] = branches;
  return { table: first.table, pipeline: [...first.stages, ...rest.map((branch) => ({ $unionWith: { coll: branch.table, pipeline: branch.stages } }))] };
}

/** The records of a several-collection read, per part and in the order of its ids. */
export function docsByPart(parts: readonly { ids: string[] }[], records: readonly PartRecord[]): StoredDoc[][] {
  const found = parts.map(() => new Map<string, StoredDoc>());
  for (const record of records) if (record.doc) found[record.part].set(record._id, { doc: record.doc, revision: BigInt(record.revision) });
  return parts.map((part, index) => part.ids.flatMap((id) => found[index].get(id) ?? []));
}

/** A revision-guarded write as a replaceOne: it replaces only an older record, and inserts when there is none. */
export function replaceOlder({ id, doc, revision }: DocWrite): { filter: { _id: string; revision: { $lt: bigint } }; replacement: { revision: bigint; deleted: boolean; doc: ReadModelDoc | null }; upsert: true } {
  const replacement = doc ? { revision, deleted: false, doc: JSON.parse(JSON.stringify(doc)) as ReadModelDoc } : { revision, deleted: true, doc: null };
  return { filter: { _id: id, revision: { $lt: revision } }, replacement, upsert: true };
}
