import { CheckedFilter } from './collection-schema';
import { idMatcher, matches } from './doc-match';

describe('idMatcher', () => {
  // Ids and bounds around the places where JavaScript's order and code point order part: surrogates
  // (astral characters) against U+E000–U+FFFF, a prefix against a longer id, the empty id.
  const strings = ['', 'a', 'a|', 'a|P|2026', 'a|P|2026-11-22T01:00:00.000Z', 'b', 'a\uffff', 'a\ue000', 'a\ud83d\ude00', 'a\ud7ff', '\ud800', 'é', 'z'];
  const ops = ['eq', 'gt', 'gte', 'lt', 'lte'] as const;
  const filters: CheckedFilter[] = [
    ...strings.flatMap((value) => ops.map((op): CheckedFilter => ({ field: 'id', op, value }))),
    { field: 'id', op: 'gt', value: 3 },
    { field: 'id', op: 'lt', value: 3 },
    { field: 'id', op: 'eq', value: null },
    { field: 'id', op: 'in', value: ['a', 'b', 7] },
    { field: 'id', op: 'contains', value: 'a' },
  ];

  it('agrees with matches on every id, for each filter alone and for ranges of two', () => {
    const disagreements: string[] = [];
    const check = (set: CheckedFilter[]) => {
      const matcher = idMatcher(set);
      for (const id of strings) {
        const expected = set.every((filter) => matches({ id }, filter));
        if (matcher(id) !== expected) disagreements.push(`${JSON.stringify(set)} on ${JSON.stringify(id)}`);
      }
    };
    for (const filter of filters) check([filter]);
    for (const low of filters.filter((filter) => filter.op === 'gte' || filter.op === 'gt')) {
      for (const high of filters.filter((filter) => filter.op === 'lt' || filter.op === 'lte')) check([low, high]);
    }
    check([filters[0], filters[1], filters[2]]);
    expect(disagreements).toEqual([]);
  });

  it('lets every id through when there is no filter', () => {
    expect(idMatcher([])('anything')).toBe(true);
  });
});
