import { CollectionSchema } from './collection-schema';
import { batchAnswers, planBatch, unionOf } from './mongodb-queries';

// The MongoDB adapter's readBatch without a server: what goes out, and how the records come back as answers
// (the contract suite runs the adapter itself where MONGODB_URL is set).
const incidents = new CollectionSchema({ name: 'incidents_v1_g1', indexes: [{ field: 'accountId' }], sortField: 'startedAt' });
const services = new CollectionSchema({ name: 'services_v1_g1', indexes: [] });

describe('MongoDB readBatch plan', () => {
  const reads = [
    { collection: 'services_v1_g1', ids: ['s-2', 's-1', 's-2'] },
    { collection: 'incidents_v1_g1', query: { filters: [{ field: 'accountId', op: 'eq' as const, value: 'a' }], sort: { field: 'startedAt', direction: 'desc' as const }, limit: 3 } },
    { collection: 'incidents_v1_g1', query: { limit: 2, after: { value: null, id: 'i-1' } } },
    { collection: 'services_v1_g1', ids: [] },
  ];
  const schemas = [services, incidents, incidents, services];

  it('reads ids and first pages in one aggregation, each branch tagged with its part; a page after a cursor apart', () => {
    const plan = planBatch(reads, schemas);
    expect(plan.apart).toEqual([2]);
    expect(unionOf(plan.branches)).toEqual({
      table: 'rm_services_v1_g1',
      pipeline: [
        { $match: { _id: { $in: ['s-2', 's-1'] }, deleted: false } },
        { $project: { revision: 1, doc: 1, part: { $literal: 0 } } },
        {
          $unionWith: {
            coll: 'rm_incidents_v1_g1',
            pipeline: [
              { $match: { $and: [{ deleted: false }, { 'doc.accountId': 'a' }] } },
              { $sort: { 'doc.startedAt': -1, _id: -1 } },
              { $limit: 3 },
              { $project: { revision: 1, doc: 1, part: { $literal: 1 } } },
            ],
          },
        },
      ],
    });
  });

  it('answers in the order asked: ids in the order wanted, a page in its sort order whatever order the union gave', () => {
    const plan = planBatch(reads, schemas);
    const records = [
      { _id: 'i-1', revision: 1n, doc: { id: 'i-1', startedAt: '2026-11-01' }, part: 1 },
      { _id: 's-1', revision: 4n, doc: { id: 's-1' }, part: 0 },
      { _id: 'i-3', revision: 1n, doc: { id: 'i-3', startedAt: '2026-11-03' }, part: 1 },
      { _id: 's-2', revision: 2n, doc: { id: 's-2' }, part: 0 },
      { _id: 'i-2', revision: 1n, doc: { id: 'i-2', startedAt: null }, part: 1 },
    ];
    const apart = [[{ id: 'i-0' }]];
    expect(batchAnswers(reads.length, plan, records, apart)).toEqual([
      [
        { doc: { id: 's-2' }, revision: 2n },
        { doc: { id: 's-1' }, revision: 4n },
      ],
      [{ id: 'i-3', startedAt: '2026-11-03' }, { id: 'i-1', startedAt: '2026-11-01' }, { id: 'i-2', startedAt: null }],
      [{ id: 'i-0' }],
      [],
    ]);
  });

  it('sends nothing when no read asks for anything', () => {
    expect(unionOf(planBatch([{ collection: 'services_v1_g1', ids: [] }], [services]).branches)).toBeNull();
  });
});
