import { HARNESS_ADAPTERS, ProjectionHarness } from '../../../testing/src/projection-harness';
import { project, recorded } from '../../../testing/src/given-when-then';
import { AccountEvent, accountStream } from '../domain/account.decider';
import { AccountDoc, accountsProjection } from './accounts.projection';

const ID = '01900000-0000-7000-8000-000000000001';
const created: AccountEvent = { type: 'AccountCreated', data: { id: ID, name: 'Acme' } };

describe('accounts projection', () => {
  it('given AccountCreated, then a document with the name and the event time as created_at and updated_at', () => {
    const docs = project(accountsProjection, recorded(accountStream(ID), [created], { at: () => '2026-03-01T10:00:00.000Z' }));
    expect([...docs.values()]).toEqual([
      { id: ID, name: 'Acme', created_at: '2026-03-01T10:00:00.000Z', updated_at: '2026-03-01T10:00:00.000Z' },
    ]);
  });

  it('handles only account events', () => {
    expect(accountsProjection.handles).toEqual(['AccountCreated']);
    const [event] = recorded('other', [{ type: 'ServiceCreated', data: { id: ID } }]);
    expect(project(accountsProjection, [event]).size).toBe(0);
  });

  describe.each(HARNESS_ADAPTERS)('through the engine on %s stores', (adapter) => {
    let harness: ProjectionHarness;
    beforeEach(async () => {
      harness = await ProjectionHarness.start(adapter, [accountsProjection]);
    });
    afterEach(() => harness.close());

    it('stores the document at the stream revision, and a replay of the whole log changes nothing', async () => {
      await harness.append(accountStream(ID), [created], '2026-03-01T10:00:00.000Z');
      const before = await harness.get<AccountDoc>('accounts', ID);
      expect(before).toEqual({
        doc: { id: ID, name: 'Acme', created_at: '2026-03-01T10:00:00.000Z', updated_at: '2026-03-01T10:00:00.000Z' },
        revision: 0n,
      });
      await harness.replayAll();
      expect(await harness.get('accounts', ID)).toEqual(before);
    });
  });
});
