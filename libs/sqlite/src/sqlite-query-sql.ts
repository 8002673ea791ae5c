import { CheckedFilter, PageSegment, Scalar } from '../../read-store/src/collection-schema';

/** The SQL of a read-store filter or page segment over a collection's JSON documents, parameters pushed in order. */
// Field paths reach this point only after CollectionSchema matched them against declared,
// identifier-shaped names, which is what makes interpolating them safe.
export function valueSql(field: string): string {
  return field === 'id' ? 'id' : `json_extract(doc, '$.${field}')`;
}

// json_extract reads JSON true/false as 1/0, so booleans are bound the same way.
function bind(value: Scalar): string | number | null {
  return typeof value === 'boolean' ? Number(value) : value;
}

const RANGE_SQL = { gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;

export function filterSql(filter: CheckedFilter, params: unknown[]): string {
  const value = valueSql(filter.field);
  switch (filter.op) {
    case 'eq':
      if (filter.value === null) return `${value} IS NULL`;
      params.push(bind(filter.value));
      return `${value} = ?`;
    case 'in': {
      const present = filter.value.filter((item) => item !== null);
      const terms: string[] = [];
      if (present.length === 1) {
        // The common single-item list skips json_each, whose set-up costs more than the lookup.
        params.push(bind(present[0]));
        terms.push(`${value} = ?`);
      } else if (present.length > 0) {
        // One JSON parameter keeps a single prepared statement whatever the list length.
        params.push(JSON.stringify(present));
        terms.push(`${value} IN (SELECT value FROM json_each(?))`);
      }
      if (present.length < filter.value.length) terms.push(`${value} IS NULL`);
      return terms.length > 0 ? `(${terms.join(' OR ')})` : '0';
    }
    case 'contains':
      params.push(bind(filter.value));
      return `EXISTS (SELECT 1 FROM json_each(doc, '$.${filter.field}') WHERE value = ?)`;
    default:
      params.push(filter.value);
      return `${value} ${RANGE_SQL[filter.op]} ?`;
  }
}

export function segmentSql(segment: PageSegment, sortField: string, asc: boolean, params: unknown[]): string | null {
  const value = valueSql(sortField);
  const next = asc ? '>' : '<';
  switch (segment.kind) {
    case 'all':
      return null;
    case 'after':
      // The bare range term lets SQLite seek in the (…, sort, id) index; the OR only sorts out ties.
      params.push(segment.value, segment.value, segment.id);
      return `${value} ${next}= ? AND (${value} ${next} ? OR id ${next} ?)`;
    case 'nulls':
      if (segment.afterId === undefined) return `${value} IS NULL`;
      params.push(segment.afterId);
      return `${value} IS NULL AND id ${next} ?`;
    case 'values':
      return `${value} IS NOT NULL`;
    case 'afterId':
      params.push(segment.id);
      return `id ${next} ?`;
  }
}
