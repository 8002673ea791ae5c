import { PageInput } from '../domain/status-page.decider';

/** Ids the status-pages specs share. */
export const PAGE_ID = '01900000-0000-7000-8000-0000000000a1';
export const ACCOUNT = '01900000-0000-7000-8000-000000000001';
export const OTHER = '01900000-0000-7000-8000-000000000002';
export const SVC_A = '01900000-0000-7000-8000-000000000051';
export const SVC_B = '01900000-0000-7000-8000-000000000052';
export const SVC_C = '01900000-0000-7000-8000-000000000053';
export const CARD_1 = '01900000-0000-7000-8000-0000000000c1';
export const CARD_2 = '01900000-0000-7000-8000-0000000000c2';
export const CARD_3 = '01900000-0000-7000-8000-0000000000c3';

/** A page as a command brings it: "Acme" at acme, every optional setting unset and no cards, unless overridden. */
export function pageInput(overrides: Partial<PageInput> = {}): PageInput {
  return {
    name: 'Acme',
    url: 'acme',
    customDomain: null,
    description: null,
    logo: null,
    logoDark: null,
    favicon: null,
    redirectTo: null,
    defaultTheme: 'AUTO',
    themeColors: null,
    cards: [],
    ...overrides,
  };
}
