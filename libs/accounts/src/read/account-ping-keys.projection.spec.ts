import { project, recorded } from '../../../testing/src/given-when-then';
import { HARNESS_ADAPTERS, ProjectionHarness } from '../../../testing/src/projection-harness';
import { AccountEvent, accountStream } from '../domain/account.decider';
import { accountPingKeysProjection, PingKeyDoc } from './account-ping-keys.projection';

const ID = '01900000-0000-7000-8000-000000000001';
const events: AccountEvent[] = [
  { type: 'AccountCreated', data: { id: ID, name: 'Acme' } },
  { type: 'AccountPingKeyIssued', data: { id: ID, pingKey: 'a'.repeat(22) } },
  { type: 'AccountPingKeyIssued', data: { id: ID, pingKey: 'b'.repeat(22) } },
];

describe('account ping keys projection', () => {
  it('given a key issued then rotated, then the document holds the latest key', () => {
    const docs = project(accountPingKeysProjection, recorded(accountStream(ID), events, { at: (i) => `2026-03-01T10:00:0${i}.000Z` }));
    expect([...docs.values()]).toEqual([{ id: ID, pingKey: 'b'.repeat(22), updated_at: '2026-03-01T10:00:02.000Z' }]);
  });

  it('given only AccountCreated, then no document', () => {
    expect(project(accountPingKeysProjection, recorded(accountStream(ID), events.slice(0, 1))).size).toBe(0);
  });

  describe.each(HARNESS_ADAPTERS)('through the engine on %s stores', (adapter) => {
    let harness: ProjectionHarness;
    beforeEach(async () => {
      harness = await ProjectionHarness.start(adapter, [accountPingKeysProjection]);
    });
    afterEach(() => harness.close());

    it('finds the account by key, the old key no longer, and a replay changes nothing', async () => {
      await harness.append(accountStream(ID), events);
      const find = (key: string) => harness.find<PingKeyDoc>('account_ping_keys', { filters: [{ field: 'pingKey', op: 'eq', value: key }], limit: 2 });
      expect((await find('b'.repeat(22))).map((d) => d.id)).toEqual([ID]);
      expect(await find('a'.repeat(22))).toEqual([]);
      await harness.replayAll();
      expect((await find('b'.repeat(22))).map((d) => d.id)).toEqual([ID]);
    });
  });
});
