import { HARNESS_ADAPTERS, ProjectionHarness } from '../../../testing/src/projection-harness';
import { project, recorded } from '../../../testing/src/given-when-then';
import { PageSettings, StatusPageEvent, statusPageStream } from '../domain/status-page.decider';
import { DEFAULT_THEME_COLORS } from '../domain/theme';
import { ACCOUNT, CARD_1, CARD_2, PAGE_ID, pageInput, SVC_A, SVC_B, SVC_C } from '../testing/page-fixtures';
import { StatusPageDoc, statusPagesProjection } from './status-pages.projection';

const ID = PAGE_ID;
const times = ['2026-03-01T10:00:00.000Z', '2026-03-02T11:00:00.000Z', '2026-03-03T12:00:00.000Z'];

const settings = (overrides: Partial<PageSettings> = {}): PageSettings => ({
  ...pageInput({ customDomain: 'status.acme.com', description: 'All systems', logo: 'https://acme.com/logo.png' }),
  cards: [
    { id: CARD_1, name: 'Core', serviceIds: [SVC_B, SVC_A] },
    { id: CARD_2, name: 'Edge', serviceIds: [SVC_A] },
  ],
  ...overrides,
});
const created: StatusPageEvent = { type: 'StatusPageCreated', data: { id: ID, accountId: ACCOUNT, page: settings() } };
const events = (...list: StatusPageEvent[]) => recorded(statusPageStream(ID), list, { at: (i) => times[i], accountId: ACCOUNT });

describe('status pages projection', () => {
  it('given StatusPageCreated, then the page with its cards in order, every service once, times of the event', () => {
    expect(project(statusPagesProjection, events(created)).get(ID)).toEqual({
      id: ID,
      accountId: ACCOUNT,
      name: 'Acme',
      url: 'acme',
      customDomain: 'status.acme.com',
      description: 'All systems',
      logo: 'https://acme.com/logo.png',
      logoDark: null,
      favicon: null,
      redirectTo: null,
      defaultTheme: 'AUTO',
      themeColors: null,
      cards: [
        { id: CARD_1, name: 'Core', serviceIds: [SVC_B, SVC_A], created_at: times[0], updated_at: times[0] },
        { id: CARD_2, name: 'Edge', serviceIds: [SVC_A], created_at: times[0], updated_at: times[0] },
      ],
      serviceIds: [SVC_B, SVC_A],
      created_at: times[0],
      updated_at: times[0],
    });
  });

  it('given an update, then the new settings; a kept card keeps created_at and moves updated_at only if it changed', () => {
    const updated: StatusPageEvent = {
      type: 'StatusPageUpdated',
      data: {
        id: ID,
        page: settings({
          name: 'Acme Inc',
          themeColors: DEFAULT_THEME_COLORS,
          cards: [
            { id: CARD_2, name: 'Edge', serviceIds: [SVC_A] },
            { id: CARD_1, name: 'Core', serviceIds: [SVC_C] },
          ],
        }),
      },
    };
    const doc = project(statusPagesProjection, events(created, updated)).get(ID)!;
    expect(doc).toMatchObject({ name: 'Acme Inc', themeColors: DEFAULT_THEME_COLORS, created_at: times[0], updated_at: times[1], serviceIds: [SVC_A, SVC_C] });
    expect(doc.cards).toEqual([
      { id: CARD_2, name: 'Edge', serviceIds: [SVC_A], created_at: times[0], updated_at: times[0] },
      { id: CARD_1, name: 'Core', serviceIds: [SVC_C], created_at: times[0], updated_at: times[1] },
    ]);
  });

  it('given a card replaced by a new one, then the new card has the update time as created_at', () => {
    const CARD_3 = '01900000-0000-7000-8000-0000000000c3';
    const updated: StatusPageEvent = { type: 'StatusPageUpdated', data: { id: ID, page: settings({ cards: [{ id: CARD_3, name: 'Core', serviceIds: [SVC_A] }] }) } };
    expect(project(statusPagesProjection, events(created, updated)).get(ID)!.cards).toEqual([
      { id: CARD_3, name: 'Core', serviceIds: [SVC_A], created_at: times[1], updated_at: times[1] },
    ]);
  });

  it('given a deletion, then no document', () => {
    expect(project(statusPagesProjection, events(created, { type: 'StatusPageDeleted', data: { id: ID } })).has(ID)).toBe(false);
  });

  it('given an update of an unknown page, then still no document', () => {
    const [, update] = events(created, { type: 'StatusPageUpdated', data: { id: ID, page: settings() } });
    expect(statusPagesProjection.evolve(null, update, ID)).toBeNull();
  });

  describe.each(HARNESS_ADAPTERS)('through the engine on %s stores', (adapter) => {
    let harness: ProjectionHarness;
    beforeEach(async () => {
      harness = await ProjectionHarness.start(adapter, [statusPagesProjection]);
    });
    afterEach(() => harness.close());

    it('finds the pages of an account that show a service (array index)', async () => {
      const other = '01900000-0000-7000-8000-0000000000a2';
      await harness.append(statusPageStream(ID), [created], times[0]);
      await harness.append(
        statusPageStream(other),
        [{ type: 'StatusPageCreated', data: { id: other, accountId: ACCOUNT, page: settings({ url: 'other', customDomain: null, cards: [{ id: CARD_1, name: 'X', serviceIds: [SVC_C] }] }) } }],
        times[1],
      );
      const using = (serviceId: string) =>
        harness.find<StatusPageDoc>('status_pages', {
          filters: [
            { field: 'accountId', op: 'eq', value: ACCOUNT },
            { field: 'serviceIds', op: 'contains', value: serviceId },
          ],
          limit: 10,
        });
      expect((await using(SVC_A)).map((d) => d.id)).toEqual([ID]);
      expect((await using(SVC_C)).map((d) => d.id)).toEqual([other]);
      const newestFirst = await harness.find<StatusPageDoc>('status_pages', {
        filters: [{ field: 'accountId', op: 'eq', value: ACCOUNT }],
        sort: { field: 'created_at', direction: 'desc' },
        limit: 10,
      });
      expect(newestFirst.map((d) => d.id)).toEqual([other, ID]);
    });

    it('a replay of the whole log changes nothing, and does not bring a deleted page back', async () => {
      const updated: StatusPageEvent = { type: 'StatusPageUpdated', data: { id: ID, page: settings({ name: 'Renamed' }) } };
      await harness.append(statusPageStream(ID), [created], times[0]);
      await harness.append(statusPageStream(ID), [updated], times[1]);
      const before = await harness.get<StatusPageDoc>('status_pages', ID);
      expect(before).toEqual({ doc: expect.objectContaining({ name: 'Renamed', updated_at: times[1] }), revision: 1n });
      await harness.replayAll();
      expect(await harness.get('status_pages', ID)).toEqual(before);
      await harness.append(statusPageStream(ID), [{ type: 'StatusPageDeleted', data: { id: ID } }], times[2]);
      await harness.replayAll();
      expect(await harness.get('status_pages', ID)).toBeNull();
    });
  });
});
