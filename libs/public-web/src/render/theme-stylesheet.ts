import { createHash } from 'node:crypto';
import { DEFAULT_THEME_COLORS, DefaultTheme, HEX_COLOR, ThemeColors, ThemeColorSet } from '../../../status-pages/src/status-pages.api';

const VARIABLES: [keyof ThemeColorSet, string][] = [
  ['bodyBackgroundColor', '--body-bg'],
  ['headerBackgroundColor', '--header-bg'],
  ['headerFontColor', '--header-fg'],
  ['titleFontColor', '--title-fg'],
  ['bodyFontColor', '--fg'],
  ['bodyFontColorMuted', '--muted'],
  ['navigationFontColor', '--nav-fg'],
  ['linkFontColor', '--link'],
  ['cardBackgroundColor', '--card-bg'],
  ['borderColor', '--border'],
  ['primaryButtonBackgroundColor', '--btn-bg'],
  ['primaryButtonFontColor', '--btn-fg'],
];

/** Vigil's status colours: text in them reaches 4.5:1, and bars (no data included) 3:1, on the default card colours. */
export const STATUS_COLORS = {
  light: '--ok:#15803d;--degraded:#a16207;--partial:#c2410c;--major:#b91c1c;--maint:#1d4ed8;--nodata:#8391a5',
  dark: '--ok:#4ade80;--degraded:#facc15;--partial:#fb923c;--major:#f87171;--maint:#93c5fd;--nodata:#6b7280',
};

function declarations(set: ThemeColorSet, fallback: ThemeColorSet, mode: 'light' | 'dark'): string {
  // The write side validates colours; checking again here keeps a CSS injection impossible whatever is stored.
  const vars = VARIABLES.map(([key, name]) => `${name}:${HEX_COLOR.test(set[key] ?? '') ? set[key] : fallback[key]}`).join(';');
  const logos = mode === 'dark' ? '.logo-dark{display:inline}.logo-light{display:none}' : '.logo-dark{display:none}.logo-light{display:inline}';
  return `:root{color-scheme:${mode};${vars};${STATUS_COLORS[mode]}}${logos}`;
}

/** A page's theme as its own small stylesheet: the CSP forbids inline styles. */
export function themeStylesheet(defaultTheme: DefaultTheme, colors: ThemeColors): string {
  const light = declarations(colors.light, DEFAULT_THEME_COLORS.light, 'light');
  const dark = declarations(colors.dark, DEFAULT_THEME_COLORS.dark, 'dark');
  if (defaultTheme === 'LIGHT') return light + '\n';
  if (defaultTheme === 'DARK') return dark + '\n';
  return `${light}\n@media (prefers-color-scheme:dark){${dark}}\n`;
}

export function shortHash(text: string): string {
  return createHash('sha256').update(text).digest('base64url').slice(0, 12);
}
