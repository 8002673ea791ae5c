import { ConflictError, NotFoundError } from '../../../core/src/errors';
import { specFor } from '../../../testing/src/given-when-then';
import { CardInput, PageInput, PageSettings, requireOwned, statusPageDecider, StatusPageEvent, statusPageStream } from './status-page.decider';
import { DEFAULT_THEME_COLORS } from './theme';
import { ACCOUNT, CARD_1, CARD_2, CARD_3, OTHER, PAGE_ID, pageInput, SVC_A, SVC_B } from '../testing/page-fixtures';

const ID = PAGE_ID;

const card = (newId: string, name: string, serviceIds: string[], ref: string | null = null): CardInput => ({ ref, newId, name, serviceIds });

const input = (overrides: Partial<PageInput> = {}): PageInput => pageInput({ cards: [card(CARD_1, 'Core', [SVC_B, SVC_A])], ...overrides });

function settled(page: PageInput): PageSettings {
  return { ...page, cards: page.cards.map((c) => ({ id: c.ref ?? c.newId, name: c.name, serviceIds: c.serviceIds })) };
}

const created: StatusPageEvent = { type: 'StatusPageCreated', data: { id: ID, accountId: ACCOUNT, page: settled(input()) } };
const deleted: StatusPageEvent = { type: 'StatusPageDeleted', data: { id: ID } };
const spec = specFor(statusPageDecider);

describe('status page decider', () => {
  it('names its stream statuspage-<id>', () => {
    expect(statusPageStream(ID)).toBe(`statuspage-${ID}`);
  });

  describe('CreateStatusPage', () => {
    it('given nothing, then StatusPageCreated with cards and services in the order sent', () => {
      spec.given([]).when({ type: 'CreateStatusPage', id: ID, accountId: ACCOUNT, page: input() }).then([created]);
    });

    it('given nothing, a card that names some id still gets a new one (ids are server-made)', () => {
      const page = input({ cards: [card(CARD_1, 'Core', [], CARD_3)] });
      spec
        .given([])
        .when({ type: 'CreateStatusPage', id: ID, accountId: ACCOUNT, page })
        .then([{ type: 'StatusPageCreated', data: { id: ID, accountId: ACCOUNT, page: { ...settled(page), cards: [{ id: CARD_1, name: 'Core', serviceIds: [] }] } } }]);
    });

    it('given an existing page, then a conflict', () => {
      spec.given([created]).when({ type: 'CreateStatusPage', id: ID, accountId: ACCOUNT, page: input() }).thenThrows(ConflictError);
    });

    it('given a deleted page, then a conflict (ids are never reused)', () => {
      spec.given([created, deleted]).when({ type: 'CreateStatusPage', id: ID, accountId: ACCOUNT, page: input() }).thenThrows(ConflictError);
    });
  });

  describe('UpdateStatusPage', () => {
    it('given a page, when its settings change, then StatusPageUpdated with the whole page', () => {
      const themeColors = { light: { ...DEFAULT_THEME_COLORS.light, linkFontColor: '#00f' }, dark: DEFAULT_THEME_COLORS.dark };
      const page = input({ name: 'Acme Inc', themeColors, defaultTheme: 'DARK' });
      spec
        .given([created])
        .when({ type: 'UpdateStatusPage', id: ID, accountId: ACCOUNT, page: { ...page, cards: [card(CARD_2, 'Core', [SVC_B, SVC_A], CARD_1)] } })
        .then([{ type: 'StatusPageUpdated', data: { id: ID, page: { ...settled(page), cards: [{ id: CARD_1, name: 'Core', serviceIds: [SVC_B, SVC_A] }] } } }]);
    });

    it('given a page, a card naming an existing card keeps its id; unknown and repeated references get new ids', () => {
      const cards = [card(CARD_2, 'Second', [SVC_A]), card(CARD_3, 'Core', [], CARD_1), card('01900000-0000-7000-8000-0000000000c4', 'Copy', [], CARD_1)];
      const decided = statusPageDecider.decide(
        { type: 'UpdateStatusPage', id: ID, accountId: ACCOUNT, page: input({ cards }) },
        statusPageDecider.evolve(statusPageDecider.initialState(), created),
      );
      expect(decided).toHaveLength(1);
      const page = (decided[0] as Extract<StatusPageEvent, { type: 'StatusPageUpdated' }>).data.page;
      expect(page.cards.map((c) => [c.id, c.name])).toEqual([
        [CARD_2, 'Second'],
        [CARD_1, 'Core'],
        ['01900000-0000-7000-8000-0000000000c4', 'Copy'],
      ]);
    });

    it('given a page, when sent exactly what it has (card referenced), then nothing', () => {
      spec
        .given([created])
        .when({ type: 'UpdateStatusPage', id: ID, accountId: ACCOUNT, page: input({ cards: [card(CARD_2, 'Core', [SVC_B, SVC_A], CARD_1)] }) })
        .then([]);
    });

    it('given a page, when the service order changes, then an update (order is part of the page)', () => {
      const page = input({ cards: [card(CARD_2, 'Core', [SVC_A, SVC_B], CARD_1)] });
      spec
        .given([created])
        .when({ type: 'UpdateStatusPage', id: ID, accountId: ACCOUNT, page })
        .then([{ type: 'StatusPageUpdated', data: { id: ID, page: { ...settled(page), cards: [{ id: CARD_1, name: 'Core', serviceIds: [SVC_A, SVC_B] }] } } }]);
    });

    it('given a page without colours, when sent exactly the default palette (a GET echoed back), then nothing', () => {
      spec
        .given([created])
        .when({ type: 'UpdateStatusPage', id: ID, accountId: ACCOUNT, page: input({ themeColors: DEFAULT_THEME_COLORS, cards: [card(CARD_2, 'Core', [SVC_B, SVC_A], CARD_1)] }) })
        .then([]);
    });

    it('given a page with colours of its own, when sent the default palette, then the palette is pinned', () => {
      const own = { light: { ...DEFAULT_THEME_COLORS.light, borderColor: '#000' }, dark: DEFAULT_THEME_COLORS.dark };
      const withColors: StatusPageEvent = { type: 'StatusPageCreated', data: { id: ID, accountId: ACCOUNT, page: settled(input({ themeColors: own })) } };
      const page = input({ themeColors: DEFAULT_THEME_COLORS, cards: [card(CARD_2, 'Core', [SVC_B, SVC_A], CARD_1)] });
      spec
        .given([withColors])
        .when({ type: 'UpdateStatusPage', id: ID, accountId: ACCOUNT, page })
        .then([{ type: 'StatusPageUpdated', data: { id: ID, page: { ...settled(page), cards: [{ id: CARD_1, name: 'Core', serviceIds: [SVC_B, SVC_A] }] } } }]);
    });

    it('given nothing, then not found', () => {
      spec.given([]).when({ type: 'UpdateStatusPage', id: ID, accountId: ACCOUNT, page: input() }).thenThrows(NotFoundError);
    });

    it('given a deleted page, then not found', () => {
      spec.given([created, deleted]).when({ type: 'UpdateStatusPage', id: ID, accountId: ACCOUNT, page: input() }).thenThrows(NotFoundError);
    });

    it("given another account's page, then not found (never revealed)", () => {
      spec.given([created]).when({ type: 'UpdateStatusPage', id: ID, accountId: OTHER, page: input() }).thenThrows(NotFoundError);
    });
  });

  describe('DeleteStatusPage', () => {
    it('given a page, then StatusPageDeleted', () => {
      spec.given([created]).when({ type: 'DeleteStatusPage', id: ID, accountId: ACCOUNT }).then([deleted]);
    });

    it('given a deleted page, then not found', () => {
      spec.given([created, deleted]).when({ type: 'DeleteStatusPage', id: ID, accountId: ACCOUNT }).thenThrows(NotFoundError);
    });

    it("given another account's page, then not found", () => {
      spec.given([created]).when({ type: 'DeleteStatusPage', id: ID, accountId: OTHER }).thenThrows(NotFoundError);
    });

    it('keeps the deleted page in state, so its url and custom domain can be released', () => {
      const state = [created, deleted].reduce(statusPageDecider.evolve, statusPageDecider.initialState());
      expect(state.status).toBe('deleted');
      expect(state.page?.url).toBe('acme');
      expect(() => requireOwned(state, ACCOUNT)).toThrow(NotFoundError);
    });
  });
});
