import { DEFAULT_THEME_COLORS, HEX_COLOR, THEME_COLOR_KEYS, ThemeColorSet, themeColorsOrDefault } from './theme';

/** WCAG 2.x relative luminance and contrast ratio. */
function luminance(hex: string): number {
  const full = hex.length === 4 ? `#${hex[1]}${hex[1]}${hex[2]}${hex[2]}${hex[3]}${hex[3]}` : hex;
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(full.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** Each text colour and the backgrounds it is drawn on. */
const TEXT_ON: [keyof ThemeColorSet, (keyof ThemeColorSet)[]][] = [
  ['headerFontColor', ['headerBackgroundColor']],
  ['navigationFontColor', ['headerBackgroundColor']],
  ['titleFontColor', ['bodyBackgroundColor', 'cardBackgroundColor']],
  ['bodyFontColor', ['bodyBackgroundColor', 'cardBackgroundColor']],
  ['bodyFontColorMuted', ['bodyBackgroundColor', 'cardBackgroundColor']],
  ['linkFontColor', ['bodyBackgroundColor', 'cardBackgroundColor']],
  ['primaryButtonFontColor', ['primaryButtonBackgroundColor']],
];

describe('default theme colours', () => {
  it.each(['light', 'dark'] as const)('%s has all twelve colours of api.md, each #RRGGBB', (mode) => {
    expect(Object.keys(DEFAULT_THEME_COLORS[mode])).toEqual([...THEME_COLOR_KEYS]);
    for (const key of THEME_COLOR_KEYS) expect(DEFAULT_THEME_COLORS[mode][key]).toMatch(HEX_COLOR);
  });

  it.each(['light', 'dark'] as const)('%s: every text colour reaches WCAG AA (4.5:1) on its backgrounds', (mode) => {
    const set = DEFAULT_THEME_COLORS[mode];
    for (const [text, backgrounds] of TEXT_ON) {
      for (const background of backgrounds) {
        expect({ text, background, ok: contrast(set[text], set[background]) >= 4.5 }).toEqual({ text, background, ok: true });
      }
    }
  });

  it('the contrast helper agrees with known ratios', () => {
    expect(contrast('#000000', '#FFFFFF')).toBeCloseTo(21, 5);
    expect(contrast('#777', '#FFFFFF')).toBeCloseTo(4.48, 2);
  });

  it('hands out copies: changing one never changes the default', () => {
    const copy = themeColorsOrDefault(null);
    copy.light.bodyBackgroundColor = '#000';
    expect(DEFAULT_THEME_COLORS.light.bodyBackgroundColor).toBe('#F8FAFC');
  });

  it('accepts #RGB and #RRGGBB in any case, nothing else', () => {
    for (const ok of ['#fff', '#FFF', '#0a0B0c', '#123456']) expect(ok).toMatch(HEX_COLOR);
    for (const bad of ['fff', '#ffff', '#12345', '#1234567', '#ggg', 'red', '#fff ', ' #fff']) expect(bad).not.toMatch(HEX_COLOR);
  });
});
