/** The twelve colours of a theme colour set, in the order api.md lists them. */
export const THEME_COLOR_KEYS = [
  'bodyBackgroundColor',
  'headerBackgroundColor',
  'headerFontColor',
  'titleFontColor',
  'bodyFontColor',
  'bodyFontColorMuted',
  'navigationFontColor',
  'linkFontColor',
  'cardBackgroundColor',
  'borderColor',
  'primaryButtonBackgroundColor',
  'primaryButtonFontColor',
] as const;

export type ThemeColorKey = (typeof THEME_COLOR_KEYS)[number];
export type ThemeColorSet = Record<ThemeColorKey, string>;

export interface ThemeColors {
  light: ThemeColorSet;
  dark: ThemeColorSet;
}

export const DEFAULT_THEMES = ['AUTO', 'LIGHT', 'DARK'] as const;
export type DefaultTheme = (typeof DEFAULT_THEMES)[number];

export const HEX_COLOR = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;

/**
 * Vigil's palette for pages that set none. Every text colour reaches WCAG AA (4.5:1) on the
 * backgrounds it is drawn on, muted text included; the spec file checks the ratios.
 */
export const DEFAULT_THEME_COLORS: ThemeColors = {
  light: {
    bodyBackgroundColor: '#F8FAFC',
    headerBackgroundColor: '#FFFFFF',
    headerFontColor: '#0F172A',
    titleFontColor: '#0F172A',
    bodyFontColor: '#1E293B',
    bodyFontColorMuted: '#475569',
    navigationFontColor: '#334155',
    linkFontColor: '#1D4ED8',
    cardBackgroundColor: '#FFFFFF',
    borderColor: '#CBD5E1',
    primaryButtonBackgroundColor: '#1D4ED8',
    primaryButtonFontColor: '#FFFFFF',
  },
  dark: {
    bodyBackgroundColor: '#0B1120',
    headerBackgroundColor: '#111827',
    headerFontColor: '#F9FAFB',
    titleFontColor: '#F9FAFB',
    bodyFontColor: '#E5E7EB',
    bodyFontColorMuted: '#9CA3AF',
    navigationFontColor: '#D1D5DB',
    linkFontColor: '#93C5FD',
    cardBackgroundColor: '#1F2937',
    borderColor: '#374151',
    primaryButtonBackgroundColor: '#2563EB',
    primaryButtonFontColor: '#FFFFFF',
  },
};

/** A copy, so callers can never change the shared default. */
export function themeColorsOrDefault(colors: ThemeColors | null): ThemeColors {
  const source = colors ?? DEFAULT_THEME_COLORS;
  return { light: { ...source.light }, dark: { ...source.dark } };
}
