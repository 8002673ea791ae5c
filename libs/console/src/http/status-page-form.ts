import { DEFAULT_THEME_COLORS, ServiceView, StatusPageDetailView, THEME_COLOR_KEYS } from '../../../status-pages/src/status-pages.api';
import { fieldOf } from './console-access';
import { FieldErrors } from './form-check';

/** The page's own fields, named as the API names them. */
const TEXT_FIELDS = ['name', 'url', 'description', 'customDomain', 'logo', 'logoDark', 'favicon', 'redirectTo', 'defaultTheme'] as const;
/** Colour fields: `l-<key>` (light) and `d-<key>` (dark); short, as a form body is at most 4 KB. */
const SCHEMES = [['l', 'light'], ['d', 'dark']] as const;
/** New cards a form offers at once. */
const NEW_CARDS = 1;

export interface CardValues {
  /** The card's field prefix, `c<N>`. */
  key: string;
  id: string;
  name: string;
  position: string;
  remove: boolean;
  /** Every service of the form's list (`svcs`) with its position on this card ('' = not on it). */
  services: { index: number; id: string; name: string; position: string }[];
}

/** What a status page form sent (or the page as it is), as typed. */
export interface PageValues {
  fields: Record<string, string>;
  cards: CardValues[];
  /** The services the form numbers, by index (`c<N>-s<index>`): their ids once, not once per card, as a form body is at most 4 KB. */
  serviceIds: string[];
}

const colorField = (scheme: string, key: string) => `${scheme}-${key}`;

/** `#abc` → `#aabbcc`, lower case: what an `<input type="color">` shows; anything else as it is. */
const sixDigits = (color: string) => (/^#[0-9a-f]{3}$/i.test(color) ? `#${[...color.slice(1)].map((c) => c + c).join('')}` : color).toLowerCase();

export function pageValues(page: StatusPageDetailView | null, services: ServiceView[]): PageValues {
  const fields: Record<string, string> = {};
  for (const name of TEXT_FIELDS) fields[name] = page ? String(page[name] ?? '') : name === 'defaultTheme' ? 'AUTO' : '';
  const colors = page?.themeColors ?? DEFAULT_THEME_COLORS;
  for (const [short, scheme] of SCHEMES) for (const key of THEME_COLOR_KEYS) fields[colorField(short, key)] = sixDigits(colors[scheme][key]);
  const cards: CardValues[] = (page?.cards ?? []).map((card, n) => {
    const at = new Map(card.services.map((s, i) => [s.id, String(i + 1)]));
    return { key: `c${n}`, id: card.id, name: card.name, position: String(n + 1), remove: false, services: services.map((s, index) => ({ index, id: s.id, name: s.name, position: at.get(s.id) ?? '' })) };
  });
  for (let n = 0; n < NEW_CARDS; n++) cards.push(blankCard(`c${cards.length}`, services));
  return { fields, cards, serviceIds: services.map((s) => s.id) };
}

const blankCard = (key: string, services: ServiceView[]): CardValues => ({ key, id: '', name: '', position: '', remove: false, services: services.map((s, index) => ({ index, id: s.id, name: s.name, position: '' })) });

/** The form as sent; cards are read by their prefix, services by the form's list (`svcs`, named by the account's services). */
export function readPageForm(body: unknown, services: ServiceView[]): PageValues {
  const names = new Map(services.map((s) => [s.id, s.name]));
  const serviceIds = fieldOf(body, 'svcs').split(' ').filter((id) => id !== '').slice(0, 500);
  const fields: Record<string, string> = {};
  for (const name of TEXT_FIELDS) fields[name] = fieldOf(body, name).trim();
  for (const [short] of SCHEMES) for (const key of THEME_COLOR_KEYS) fields[colorField(short, key)] = fieldOf(body, colorField(short, key)).trim();
  const cards: CardValues[] = [];
  for (let n = 0; n <= 50 + NEW_CARDS; n++) {
    const key = `c${n}`;
    if (!body || typeof body !== 'object' || !(`${key}-name` in (body as object))) break;
    cards.push({
      key,
      id: fieldOf(body, `${key}-id`),
      name: fieldOf(body, `${key}-name`).trim(),
      position: fieldOf(body, `${key}-pos`).trim(),
      remove: fieldOf(body, `${key}-remove`) === 'on',
      services: serviceIds.map((id, index) => ({ index, id, name: names.get(id) ?? 'A service no longer there', position: fieldOf(body, `${key}-s${index}`).trim() })),
    });
  }
  return { fields, cards, serviceIds };
}

const POSITION = /^\d{1,4}$/;
const byPosition = <T extends { position: string }>(list: T[]) =>
  list.map((item, i) => ({ item, i })).sort((a, b) => Number(a.item.position || 1e9) - Number(b.item.position || 1e9) || a.i - b.i).map(({ item }) => item);

/**
 * The form as the API's PUT body, with the positions' own errors; `cardKeys[i]` is the form card of the
 * body's card `i` (to put the API's errors back beside the right fields). Removed and untouched new cards go.
 */
export function pageBody(values: PageValues, known: Set<string>): { body: Record<string, unknown>; errors: FieldErrors; cardKeys: string[] } {
  const errors: FieldErrors = {};
  for (const card of values.cards) {
    if (card.position !== '' && !POSITION.test(card.position)) errors[`${card.key}-pos`] = 'A position is a whole number such as 1.';
    for (const s of card.services) {
      if (s.position !== '' && !POSITION.test(s.position)) errors[`${card.key}-s${s.index}`] = 'A position is a whole number such as 1.';
      else if (s.position !== '' && !known.has(s.id)) errors[`${card.key}-s${s.index}`] = 'This service is no longer there: leave its number empty.';
    }
  }
  const kept = byPosition(values.cards.filter((c) => !c.remove && (c.id !== '' || c.name !== '' || c.services.some((s) => s.position !== ''))));
  const f = values.fields;
  const theme = (short: string) => Object.fromEntries(THEME_COLOR_KEYS.map((key) => [key, f[colorField(short, key)]]));
  const body = {
    name: f.name,
    url: f.url,
    description: f.description,
    customDomain: f.customDomain,
    logo: f.logo,
    logoDark: f.logoDark,
    favicon: f.favicon,
    redirectTo: f.redirectTo,
    defaultTheme: f.defaultTheme,
    themeColors: { light: theme('l'), dark: theme('d') },
    cards: kept.map((card) => ({ ...(card.id && { id: card.id }), name: card.name, services: byPosition(card.services.filter((s) => s.position !== '')).map((s) => ({ id: s.id })) })),
  };
  return { body, errors, cardKeys: kept.map((c) => c.key) };
}

/** The API's error paths as the form's field names: `themeColors.light.linkFontColor` → `l-linkFontColor`, `cards[0].name` → `c2-name`. */
export function formErrors(errors: FieldErrors, cardKeys: string[]): FieldErrors {
  const out: FieldErrors = {};
  for (const [path, message] of Object.entries(errors)) {
    const color = /^themeColors\.(light|dark)\.(\w+)$/.exec(path);
    const card = /^cards\[(\d+)\](?:\.(\w+))?/.exec(path);
    let field = path.startsWith('themeColors') ? 'colors' : path;
    if (color) field = colorField(color[1] === 'light' ? 'l' : 'd', color[2]);
    else if (card) field = `${cardKeys[Number(card[1])] ?? 'cards'}-${card[2] === 'name' ? 'name' : 'services'}`;
    else if (path.startsWith('cards')) field = 'cards';
    out[field] ??= message;
  }
  return out;
}
