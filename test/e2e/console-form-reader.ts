/** Decodes the few entities the templates write. */
const unescape = (s: string) => s.replace(/&quot;/g, '"').replace(/&#x27;/g, "'").replace(/&#x3D;/g, '=').replace(/&#x60;/g, '`').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/** What a browser would send for the form posting to `action`, as shown (no field changed). */
export function formAsShown(html: string, action: string): Record<string, string> {
  const start = html.indexOf(`action="${action}"`);
  if (start < 0) throw new Error(`No form posting to ${action}`);
  const form = html.slice(start, html.indexOf('</form>', start));
  const values: Record<string, string> = {};
  for (const [tag] of form.matchAll(/<input [^>]*>/g)) {
    const name = /name="([^"]+)"/.exec(tag)?.[1];
    if (!name) continue;
    const value = unescape(/value="([^"]*)"/.exec(tag)?.[1] ?? '');
    if (/type="(checkbox|radio)"/.test(tag) && !/ checked/.test(tag)) continue;
    values[name] = value;
  }
  for (const [, name, text] of form.matchAll(/<textarea [^>]*name="([^"]+)"[^>]*>([^<]*)<\/textarea>/g)) values[name] = unescape(text);
  for (const [, name, options] of form.matchAll(/<select [^>]*name="([^"]+)"[^>]*>(.*?)<\/select>/gs)) {
    values[name] = unescape(/<option value="([^"]*)" selected/.exec(options)?.[1] ?? /<option value="([^"]*)"/.exec(options)?.[1] ?? '');
  }
  return values;
}
