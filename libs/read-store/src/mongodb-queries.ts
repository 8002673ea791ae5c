import type { Document } from 'mongodb';
import { ReadModelDoc } from '../../core/src/projection';
import { CheckedFilter, CheckedQuery, CollectionSchema, PageSegment } from './collection-schema';
import { compareDocs } from './doc-match';
import { BatchAnswer, BatchRead, DocWrite, SortSpec, StoredDoc } from './read-store.port';

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

/** One part of a several-collection read: the table it reads and the stages that pick its records, tagged with the part. */
interface UnionBranch {
  table: string;
  stages: Document[];
}

const tagged = (part: number): Document => ({ $project: { revision: 1, doc: 1, part: { $literal: part } } });

/** The records of `ids`, as getMany reads them. */
function idsBranch(table: string, ids: string[], part: number): UnionBranch {
  return { table, stages: [{ $match: { _id: { $in: ids }, deleted: false } }, tagged(part)] };
}

/** The first page of a find (no cursor: one scan), as find reads it. */
function findBranch(table: string, { filters, sort, limit }: CheckedQuery, part: number): UnionBranch {
  return { table, stages: [{ $match: { $and: [{ deleted: false }, ...filters.map(filterQuery)] } }, { $sort: sortOrder(sort) }, { $limit: limit }, tagged(part)] };
}

export function sortOrder(sort: SortSpec): Record<string, 1 | -1> {
  const direction = sort.direction === 'asc' ? 1 : -1;
  return sort.field === 'id' ? { _id: direction } : { [path(sort.field)]: direction, _id: direction };
}

/** One aggregation over every branch: the first runs on its table, the others come in through $unionWith. Null for none. */
export function unionOf(branches: readonly UnionBranch[]): { table: string; pipeline: Document[] } | null {
  if (branches.length === 0) return null;
  const [first, ...rest] = branches;
  return { table: first.table, pipeline: [...first.stages, ...rest.map((branch) => ({ $unionWith: { coll: branch.table, pipeline: branch.stages } }))] };
}

/**
 * One aggregation reading the ids of every part (a collection each, by table name): the first part with ids
 * is the collection it runs on, the others come in through $unionWith. Null when no part asks for anything.
 */
export function unionPipeline(parts: readonly { table: string; ids: string[] }[]): { table: string; pipeline: Document[] } | null {
  return unionOf(parts.flatMap((part, index) => (part.ids.length === 0 ? [] : [idsBranch(part.table, part.ids, index)])));
}

/** How a readBatch goes out: one aggregation of `branches`, and the keyset pages (`apart`) find reads on its own. */
interface BatchPlan {
  branches: UnionBranch[];
  ids: Map<number, string[]>;
  sorts: Map<number, SortSpec>;
  apart: number[];
}

export function planBatch(reads: readonly BatchRead[], schemas: readonly CollectionSchema[]): BatchPlan {
  const plan: BatchPlan = { branches: [], ids: new Map(), sorts: new Map(), apart: [] };
  reads.forEach((read, part) => {
    const table = `rm_${read.collection}`;
    if (read.query) {
      const checked = schemas[part].checkQuery(read.query);
      // A page after a cursor may take two scans (pageSegments).
      if (checked.after) return void plan.apart.push(part);
      plan.sorts.set(part, checked.sort);
      plan.branches.push(findBranch(table, checked, part));
    } else {
      const ids = schemas[part].checkIds(read.ids ?? []);
      plan.ids.set(part, ids);
      if (ids.length > 0) plan.branches.push(idsBranch(table, ids, part));
    }
  });
  return plan;
}

/** The answers of a readBatch, in the order asked, from the aggregation's records and the pages read apart. */
export function batchAnswers(count: number, plan: BatchPlan, records: readonly PartRecord[], apart: readonly ReadModelDoc[][]): BatchAnswer[] {
  const answers: BatchAnswer[] = Array.from({ length: count }, () => []);
  const byIds = docsByPart(answers.map((_, part) => ({ ids: plan.ids.get(part) ?? [] })), records);
  for (const part of plan.ids.keys()) answers[part] = byIds[part];
  // $unionWith promises no order across its branches: each find's page is put back in its sort order.
  for (const [part, sort] of plan.sorts) answers[part] = records.flatMap((record) => (record.part === part && record.doc ? [record.doc] : [])).sort(compareDocs(sort));
  plan.apart.forEach((part, index) => (answers[part] = apart[index]));
  return answers;
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
