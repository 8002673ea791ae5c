import { ReadModelDoc } from '../../core/src/projection';
import { CollectionSpec, DocWrite, Filter, FindQuery, PageAfter, SortSpec } from './read-store.port';

/** A query or write the read store refuses: a programming error, never a user's. */
export class ReadStoreUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

export type Scalar = string | number | boolean | null;

export type CheckedFilter =
  | { field: string; op: 'eq'; value: Scalar }
  | { field: string; op: 'in'; value: Scalar[] }
  | { field: string; op: 'contains'; value: string | number | boolean }
  | { field: string; op: 'gt' | 'gte' | 'lt' | 'lte'; value: string | number };

export interface CheckedQuery {
  filters: CheckedFilter[];
  sort: SortSpec;
  limit: number;
  after?: PageAfter;
}

/** The leading keys of one compound index; every adapter appends the id. */
interface IndexPlan {
  fields: string[];
  array: boolean;
}

// Field paths are written into SQL and MongoDB keys, so only plain (dotted) identifiers pass.
const FIELD_PATH = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;
const COLLECTION_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/;
// Adapters keep their own records beside the collections, under these names.
const RESERVED_NAMES = new Set(['checkpoints', 'meta', 'collections']);

export function checkCollectionName(name: string): string {
  if (typeof name !== 'string' || !COLLECTION_NAME.test(name) || RESERVED_NAMES.has(name.toLowerCase())) {
    throw new ReadStoreUsageError(`Invalid read model collection name ${JSON.stringify(name)}`);
  }
  return name;
}

function isOrderable(value: unknown): value is string | number {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

function isScalar(value: unknown): value is Scalar {
  return value === null || typeof value === 'boolean' || isOrderable(value);
}

/** A collection's declared indexes, and the checks every adapter applies before touching storage. */
export class CollectionSchema {
  readonly name: string;
  /** The spec as adapters record it, without anything else the caller's object carried. */
  readonly spec: CollectionSpec;
  readonly indexPlans: readonly IndexPlan[];
  private readonly scalarFields = new Set<string>(['id']);
  private readonly arrayFields = new Set<string>();

  constructor(spec: CollectionSpec) {
    this.name = checkCollectionName(spec.name);
    for (const { field, array } of spec.indexes) {
      if (!FIELD_PATH.test(field) || field === 'id') {
        throw new ReadStoreUsageError(`${this.name}: cannot declare an index on ${JSON.stringify(field)}`);
      }
      if (this.scalarFields.has(field) || this.arrayFields.has(field)) {
        throw new ReadStoreUsageError(`${this.name}: index "${field}" is declared twice`);
      }
      (array ? this.arrayFields : this.scalarFields).add(field);
    }
    const sortField = spec.sortField;
    if (sortField !== undefined) {
      if (!FIELD_PATH.test(sortField) || this.arrayFields.has(sortField)) {
        throw new ReadStoreUsageError(`${this.name}: cannot sort on ${JSON.stringify(sortField)}`);
      }
      this.scalarFields.add(sortField);
    }
    this.spec = {
      name: this.name,
      indexes: spec.indexes.map(({ field, array }) => (array ? { field, array } : { field })),
      ...(sortField !== undefined && { sortField }),
    };
    this.indexPlans = this.planIndexes(spec);
  }

  /** One index per declared field, led by the field and followed by the sort field when there is one. */
  private planIndexes(spec: CollectionSpec): IndexPlan[] {
    const sort = spec.sortField !== undefined && spec.sortField !== 'id' ? spec.sortField : undefined;
    const plans: IndexPlan[] = sort ? [{ fields: [sort], array: false }] : [];
    for (const { field, array } of spec.indexes) {
      if (field === sort) continue;
      plans.push({ fields: sort ? [field, sort] : [field], array: array === true });
    }
    return plans;
  }

  checkWrite(id: unknown, revision: unknown): void {
    if (typeof id !== 'string' || id === '') {
      throw new ReadStoreUsageError(`${this.name}: a document needs a non-empty string id`);
    }
    if (typeof revision !== 'bigint' || revision < 0n) {
      throw new ReadStoreUsageError(`${this.name}: revision must be a non-negative bigint`);
    }
  }

  checkDoc(doc: ReadModelDoc, revision: bigint): void {
    if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) {
      throw new ReadStoreUsageError(`${this.name}: a document must be an object`);
    }
    this.checkWrite(doc.id, revision);
  }

  /** Checks a put (`doc`) or a delete (null doc) of writeMany; returns it. */
  checkDocWrite(write: DocWrite): DocWrite {
    if (write.doc) this.checkDoc(write.doc, write.revision);
    else this.checkWrite(write.id, write.revision);
    return write;
  }

  checkIds(ids: string[]): string[] {
    if (!Array.isArray(ids) || !ids.every((id) => typeof id === 'string')) {
      throw new ReadStoreUsageError(`${this.name}: ids must be strings`);
    }
    return [...new Set(ids)];
  }

  checkFilters(filters: readonly Filter[] = []): CheckedFilter[] {
    return filters.map((filter) => this.checkFilter(filter));
  }

  checkQuery(query: FindQuery): CheckedQuery {
    const sort = query.sort ?? { field: 'id', direction: 'asc' };
    if (!this.scalarFields.has(sort.field)) {
      throw new ReadStoreUsageError(`${this.name}: cannot sort on undeclared field ${JSON.stringify(sort.field)}`);
    }
    if (sort.direction !== 'asc' && sort.direction !== 'desc') {
      throw new ReadStoreUsageError(`${this.name}: sort direction must be asc or desc`);
    }
    if (!Number.isSafeInteger(query.limit) || query.limit < 1) {
      throw new ReadStoreUsageError(`${this.name}: limit must be a positive integer`);
    }
    const after = query.after;
    if (after !== undefined && (typeof after.id !== 'string' || !(after.value === null || isOrderable(after.value)))) {
      throw new ReadStoreUsageError(`${this.name}: invalid page cursor`);
    }
    return {
      filters: this.checkFilters(query.filters),
      sort: { field: sort.field, direction: sort.direction },
      limit: query.limit,
      after,
    };
  }

  private checkFilter({ field, op, value }: Filter): CheckedFilter {
    const isArray = this.arrayFields.has(field);
    if (!isArray && !this.scalarFields.has(field)) {
      throw new ReadStoreUsageError(`${this.name}: cannot filter on undeclared field ${JSON.stringify(field)}`);
    }
    // Array fields only answer `contains`, so adapters never compare a whole array with a value.
    if (isArray !== (op === 'contains')) {
      throw new ReadStoreUsageError(
        `${this.name}: ${op} does not apply to ${isArray ? 'array' : 'scalar'} field "${field}"`,
      );
    }
    switch (op) {
      case 'eq':
        if (isScalar(value)) return { field, op, value };
        break;
      case 'in':
        if (Array.isArray(value) && value.every(isScalar)) return { field, op, value: [...value] };
        break;
      case 'contains':
        if (isScalar(value) && value !== null) return { field, op, value };
        break;
      case 'gt':
      case 'gte':
      case 'lt':
      case 'lte':
        if (isOrderable(value)) return { field, op, value };
        break;
      default:
        throw new ReadStoreUsageError(`${this.name}: unknown filter operator ${JSON.stringify(op)}`);
    }
    throw new ReadStoreUsageError(`${this.name}: invalid value for ${op} on "${field}"`);
  }
}

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

/**
 * What an adapter that sees every write to its store can tell in-process caches: a token that
 * changes whenever a document of one of the given collections may have changed. Each write bumps
 * its collection's counter to a new, never reused value; a change of layout (a collection made or
 * dropped, a generation switched through the meta records) bumps every token at once; `external`
 * is the adapter's count of commits made by other processes, which it cannot attribute.
 */
export class ChangeCounters {
  private readonly counters = new Map<string, number>();
  private sequence = 0;
  private layout = 0;

  touch(collection: string): void {
    this.counters.set(collection, ++this.sequence);
  }

  touchLayout(): void {
    this.layout = ++this.sequence;
  }

  token(collections: readonly string[], external = 0): string {
    let token = `${external}.${this.layout}`;
    for (const collection of collections) token += `.${this.counters.get(collection) ?? 0}`;
    return token;
  }
}
