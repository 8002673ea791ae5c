import { DEFAULT_THEME_COLORS, ThemeColors } from '../../../status-pages/src/domain/theme';
import { STATUS_COLORS, themeStylesheet } from './theme-stylesheet';

function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
const contrast = (a: string, b: string) => {
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
};

describe('theme stylesheet', () => {
  it.each(['light', 'dark'] as const)('status colours on the default %s card: text 4.5:1, bars 3:1', (mode) => {
    const card = DEFAULT_THEME_COLORS[mode].cardBackgroundColor;
    const colours = Object.fromEntries(STATUS_COLORS[mode].split(';').map((d) => d.split(':') as [string, string]));
    for (const name of ['--ok', '--degraded', '--partial', '--major', '--maint']) expect([name, contrast(colours[name], card) >= 4.5]).toEqual([name, true]);
    expect(contrast(colours['--nodata'], card)).toBeGreaterThanOrEqual(3);
  });

  it('pins LIGHT and DARK, follows the system for AUTO', () => {
    expect(themeStylesheet('LIGHT', DEFAULT_THEME_COLORS)).not.toContain('prefers-color-scheme');
    expect(themeStylesheet('DARK', DEFAULT_THEME_COLORS)).toContain('color-scheme:dark');
    expect(themeStylesheet('AUTO', DEFAULT_THEME_COLORS)).toContain('@media (prefers-color-scheme:dark){:root{color-scheme:dark;');
  });

  it('never writes a stored value that is not a hex colour', () => {
    const hostile: ThemeColors = { light: { ...DEFAULT_THEME_COLORS.light, bodyBackgroundColor: 'red;}body{background:url(//evil)' }, dark: DEFAULT_THEME_COLORS.dark };
    const css = themeStylesheet('LIGHT', hostile);
    expect(css).not.toContain('evil');
    expect(css).toContain(`--body-bg:${DEFAULT_THEME_COLORS.light.bodyBackgroundColor}`);
  });
});
