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
  | { type: 'StatusPageDeleted'; data: { id: string } }
  /** Vigil found the owner's proof at the custom domain (DNS TXT record or HTTP token): the page may answer there. */
  | { type: 'StatusPageDomainVerified'; data: { id: string; domain: string; method: 'dns' | 'http' } }
  /** A re-check found the proof gone: the page answers only at /status/{url} again. */
  | { type: 'StatusPageDomainVerificationLost'; data: { id: string; domain: string } };

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
  | { type: 'DeleteStatusPage'; id: string; accountId: string }
  /** The outcome of a check of the custom domain `domain`; a check of a domain the page no longer shows changes nothing. */
  | { type: 'RecordDomainCheck'; id: string; domain: string; proof: 'dns' | 'http' | null };

export interface StatusPageState {
  status: 'absent' | 'active' | 'deleted';
  accountId: string | null;
  page: PageSettings | null;
  /** Whether the page's current custom domain was proven to be its owner's. */
  domainVerified: boolean;
}

/** The page while it lives and is the account's: another account's page is indistinguishable from a missing one. */
export function ownedPage(state: StatusPageState, accountId: string): PageSettings | null {
  return state.status === 'active' && state.accountId === accountId ? state.page : null;
}

export function requireOwned(state: StatusPageState, accountId: string): PageSettings {
  const page = ownedPage(state, accountId);
  if (!page) throw new NotFoundError('Status page not found');
  return page;
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
  initialState: () => ({ status: 'absent', accountId: null, page: null, domainVerified: false }),
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
      case 'RecordDomainCheck': {
        const shown = state.status === 'active' ? state.page?.customDomain : null;
        if (!shown || !sameDomain(shown, command.domain)) return [];
        if (command.proof !== null) return state.domainVerified ? [] : [{ type: 'StatusPageDomainVerified', data: { id: command.id, domain: shown, method: command.proof } }];
        return state.domainVerified ? [{ type: 'StatusPageDomainVerificationLost', data: { id: command.id, domain: shown } }] : [];
      }
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'StatusPageCreated':
        return { status: 'active', accountId: event.data.accountId, page: event.data.page, domainVerified: false };
      case 'StatusPageUpdated':
        return { ...state, page: event.data.page, domainVerified: state.domainVerified && sameDomain(state.page?.customDomain ?? null, event.data.page.customDomain) };
      case 'StatusPageDomainVerified':
        return { ...state, domainVerified: true };
      case 'StatusPageDomainVerificationLost':
        return { ...state, domainVerified: false };
      case 'StatusPageDeleted':
        // The page is kept so that what it held (url, custom domain) can be released after the fact.
        return { ...state, status: 'deleted' };
      default:
        return state;
    }
  },
};

/** Domains compare without regard to case. */
export function sameDomain(a: string | null, b: string | null): boolean {
  return a !== null && b !== null && a.toLowerCase() === b.toLowerCase();
}

export const statusPageStream = (id: string) => `statuspage-${id}`;
