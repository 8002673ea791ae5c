import { IdGenerator } from '../../../core/src/ids';
import { PageInput } from '../domain/status-page.decider';
import { THEME_COLOR_KEYS, ThemeColors, ThemeColorSet } from '../domain/theme';
import { StatusPageBodyDto, ThemeColorsDto } from './status-page.dto';

/** The twelve colours in api.md's order, whatever order (and extras) the client sent. */
function colorSet(source: ThemeColorSet): ThemeColorSet {
  return Object.fromEntries(THEME_COLOR_KEYS.map((key) => [key, source[key]])) as ThemeColorSet;
}

function toThemeColors(dto: ThemeColorsDto | null | undefined): ThemeColors | null {
  if (!dto) return null;
  return { light: colorSet(dto.light), dark: colorSet(dto.dark) };
}

/** The validated body as the decider takes it: unset optional values are null; a card naming no existing one gets `newId`. */
export function toPageInput(body: StatusPageBodyDto, ids: IdGenerator): PageInput {
  return {
    name: body.name,
    url: body.url,
    customDomain: body.customDomain ?? null,
    description: body.description ?? null,
    logo: body.logo ?? null,
    logoDark: body.logoDark ?? null,
    favicon: body.favicon ?? null,
    redirectTo: body.redirectTo ?? null,
    defaultTheme: body.defaultTheme ?? 'AUTO',
    themeColors: toThemeColors(body.themeColors),
    cards: body.cards.map((card) => ({
      ref: typeof card.id === 'string' ? card.id : null,
      newId: ids.next(),
      name: card.name,
      serviceIds: card.services.map((service) => service.id),
    })),
  };
}
