import { Decider } from '../../../core/src/decider';
import { ConflictError, NotFoundError } from '../../../core/src/errors';
import { DEFAULT_THEME_COLORS, DefaultTheme, ThemeColors } from './theme';

export interface CardSettings {
  id: string;
  name: string;
  /** In the order the client sent them. */
  serviceIds: string[];
}

/** Everything a client sets on a page; the events carry it whole, so a replay needs nothing else. */
export interface PageSettings {
  name: string;
  url: string;
  customDomain: string | null;
  description: string | null;
  logo: string | null;
  logoDark: string | null;
  favicon: string | null;
  redirectTo: string | null;
  defaultTheme: DefaultTheme;
  /** null: the client set none, responses show Vigil's default palette. */
  themeColors: ThemeColors | null;
  cards: CardSettings[];
}

export type StatusPageEvent =
  | { type: 'StatusPageCreated'; data: { id: string; accountId: string; page: PageSettings } }
  | { type: 'StatusPageUpdated'; data: { id: string; page: PageSettings } }
  | { type: 'StatusPageDeleted'; data: { id: string } };

/** A card as a command brings it: `ref` names an existing card to keep its id, `newId` is used otherwise. */
export interface CardInput {
  ref: string | null;
  newId: string;
  name: string;
  serviceIds: string[];
}

export type PageInput = Omit<PageSettings, 'cards'> & { cards: CardInput[] };

export type StatusPageCommand =
  | { type: 'CreateStatusPage'; id: string; accountId: string; page: PageInput }
  | { type: 'UpdateStatusPage'; id: string; accountId: string; page: PageInput }
  | { type: 'DeleteStatusPage'; id: string; accountId: string };

export interface StatusPageState {
  status: 'absent' | 'active' | 'deleted';
  accountId: string | null;
  page: PageSettings | null;
}

export function requireOwned(state: StatusPageState, accountId: string): PageSettings {
  // Another account's page is indistinguishable from a missing one.
  if (state.status !== 'active' || state.accountId !== accountId || !state.page) throw new NotFoundError('Status page not found');
  return state.page;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Card ids are server-made; a card that names an existing card of this page keeps that card's id. */
function settle(input: PageInput, current: PageSettings | null): PageSettings {
  const known = new Set(current?.cards.map((c) => c.id) ?? []);
  const taken = new Set<string>();
  const cards = input.cards.map((card) => {
    const id = card.ref !== null && known.has(card.ref) && !taken.has(card.ref) ? card.ref : card.newId;
    taken.add(id);
    return { id, name: card.name, serviceIds: [...card.serviceIds] };
  });
  // A page without colours of its own that is sent Vigil's palette (a client echoing a GET back)
  // keeps following the default rather than pinning today's version of it.
  const themeColors = input.themeColors !== null && !current?.themeColors && same(input.themeColors, DEFAULT_THEME_COLORS) ? null : input.themeColors;
  return { ...input, themeColors, cards };
}

export const statusPageDecider: Decider<StatusPageState, StatusPageCommand, StatusPageEvent> = {
  initialState: () => ({ status: 'absent', accountId: null, page: null }),
  decide(command, state) {
    switch (command.type) {
      case 'CreateStatusPage':
        if (state.status !== 'absent') throw new ConflictError('Status page already exists');
        return [{ type: 'StatusPageCreated', data: { id: command.id, accountId: command.accountId, page: settle(command.page, null) } }];
      case 'UpdateStatusPage': {
        const current = requireOwned(state, command.accountId);
        const page = settle(command.page, current);
        return same(page, current) ? [] : [{ type: 'StatusPageUpdated', data: { id: command.id, page } }];
      }
      case 'DeleteStatusPage':
        requireOwned(state, command.accountId);
        return [{ type: 'StatusPageDeleted', data: { id: command.id } }];
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'StatusPageCreated':
        return { status: 'active', accountId: event.data.accountId, page: event.data.page };
      case 'StatusPageUpdated':
        return { ...state, page: event.data.page };
      case 'StatusPageDeleted':
        // The page is kept so that what it held (url, custom domain) can be released after the fact.
        return { ...state, status: 'deleted' };
      default:
        return state;
    }
  },
};

export const statusPageStream = (id: string) => `statuspage-${id}`;
