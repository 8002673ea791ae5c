import { ReadModelDoc } from '../../core/src/projection';
import { CheckedFilter, Scalar } from './collection-schema';
import { SortSpec } from './read-store.port';

// How documents match filters and sort, as SQLite (and MongoDB) do it: the in-memory adapter is
// built on these, and the SQLite adapter uses them for documents it holds in memory.

/** A document's place in a sort: the sort field's value, then its id. */
export type SortKey = [Scalar, string];

// The order SQLite gives: nulls, then numbers (booleans as 0 and 1), then strings by UTF-8 bytes.
function rank(value: Scalar): number {
  return value === null ? 0 : typeof value === 'string' ? 2 : 1;
}

export function compareValues(a: Scalar, b: Scalar): number {
  if (a === b) return 0;
  const byRank = rank(a) - rank(b);
  if (byRank !== 0 || a === null || b === null) return byRank;
  if (typeof a === 'string' && typeof b === 'string') return compareStrings(a, b);
  return Number(a) - Number(b);
}

// JavaScript's `<` compares UTF-16 units, which puts astral characters (surrogates) before
// U+E000–U+FFFF; shifting the units restores code point order, which is UTF-8 byte order.
function codePointRank(unit: number): number {
  return unit >= 0xe000 ? unit - 0x800 : unit >= 0xd800 ? unit + 0x2000 : unit;
}

export function compareStrings(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointRank(x) - codePointRank(y);
  }
  return a.length - b.length;
}

function readPath(doc: ReadModelDoc, field: string): unknown {
  let value: unknown = doc;
  for (const part of field.split('.')) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

// A scalar index over a missing or non-scalar value indexes nothing, that is null.
function asScalar(value: unknown): Scalar {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? value : null;
}

export function scalarAt(doc: ReadModelDoc, field: string): Scalar {
  return asScalar(readPath(doc, field));
}

/** The order a find with `sort` answers in: the sort field's value, then the id, in its direction. */
export function compareDocs(sort: SortSpec): (a: ReadModelDoc, b: ReadModelDoc) => number {
  const sign = sort.direction === 'asc' ? 1 : -1;
  const keyOf = (doc: ReadModelDoc): SortKey => [sort.field === 'id' ? null : scalarAt(doc, sort.field), doc.id];
  return (a, b) => {
    const [x, y] = [keyOf(a), keyOf(b)];
    return sign * (compareValues(x[0], y[0]) || compareStrings(x[1], y[1]));
  };
}

export function matches(doc: ReadModelDoc, filter: CheckedFilter): boolean {
  if (filter.op === 'contains') {
    const value = readPath(doc, filter.field);
    const items: unknown[] = Array.isArray(value) ? value : [value];
    return items.some((item) => compareValues(asScalar(item), filter.value) === 0);
  }
  const value = scalarAt(doc, filter.field);
  switch (filter.op) {
    case 'eq':
      return compareValues(value, filter.value) === 0;
    case 'in':
      return filter.value.some((candidate) => compareValues(value, candidate) === 0);
    case 'gt':
      return value !== null && compareValues(value, filter.value) > 0;
    case 'gte':
      return value !== null && compareValues(value, filter.value) >= 0;
    case 'lt':
      return value !== null && compareValues(value, filter.value) < 0;
    case 'lte':
      return value !== null && compareValues(value, filter.value) <= 0;
  }
}

/** Units at or above U+D800: where JavaScript's `<` and compareStrings may disagree. */
const HIGH_UNITS = /[\ud800-\uffff]/;

/**
 * `filters.every((filter) => matches({ id }, filter))` for filters on the id, as one predicate a query
 * can run over tens of thousands of held documents. A bound that is a string with no unit at or above
 * U+D800 is compared with JavaScript's own operators, which order ids as compareStrings does: at the
 * first unit where an id and the bound differ, the bound's is below U+D800, and both orders put it
 * before any larger unit, whatever the id's. Every other filter goes through `matches`.
 */
export function idMatcher(filters: readonly CheckedFilter[]): (id: string) => boolean {
  const tests = filters.map(idTest);
  if (tests.length === 0) return () => true;
  if (tests.length === 1) return tests[0];
  if (tests.length === 2) {
    const [first, second] = tests;
    return (id) => first(id) && second(id);
  }
  return (id) => tests.every((test) => test(id));
}

function idTest(filter: CheckedFilter): (id: string) => boolean {
  const bound = filter.value;
  if (typeof bound === 'string' && !HIGH_UNITS.test(bound)) {
    switch (filter.op) {
      case 'eq':
        return (id) => id === bound;
      case 'gt':
        return (id) => id > bound;
      case 'gte':
        return (id) => id >= bound;
      case 'lt':
        return (id) => id < bound;
      case 'lte':
        return (id) => id <= bound;
    }
  }
  return (id) => matches({ id }, filter);
}
