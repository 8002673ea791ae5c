import fc from 'fast-check';
import { IncidentView } from '../../../incidents/src/read/incident-directory';
import { StatusPageDetailView } from '../../../status-pages/src/status-pages.api';
import { incidentFeed } from './feeds';
import { PublicRenderer } from './public-renderer';

/** sax (the XML parser under the feed library's xml-js) in strict mode: enough of its API for this test. */
interface SaxParser {
  onerror: (error: Error) => void;
  onopentag: (node: { name: string }) => void;
  onclosetag: (name: string) => void;
  ontext: (text: string) => void;
  oncdata: (text: string) => void;
  write(xml: string): { close(): void };
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const sax = require('sax') as { parser(strict: boolean, options: object): SaxParser };

/** XML 1.0's Char production, by code point: a lone surrogate is no character at all. */
function onlyXmlChars(xml: string): boolean {
  for (const char of xml) {
    const c = char.codePointAt(0)!;
    const ok = c === 0x9 || c === 0xa || c === 0xd || (c >= 0x20 && c <= 0xd7ff) || (c >= 0xe000 && c <= 0xfffd) || (c >= 0x10000 && c <= 0x10ffff);
    if (!ok) return false;
  }
  return true;
}

/** Well-formed (sax in strict mode), every character allowed, and the text of each `tag` in document order. */
function parse(xml: string, tag: string): string[] {
  expect(onlyXmlChars(xml)).toBe(true);
  const parser = sax.parser(true, {});
  const texts: string[] = [];
  let inside = 0;
  parser.onerror = (error) => {
    throw error;
  };
  parser.onopentag = (node) => {
    if (node.name === tag) {
      inside += 1;
      texts.push('');
    }
  };
  parser.onclosetag = (name) => {
    if (name === tag) inside -= 1;
  };
  parser.ontext = parser.oncdata = (text) => {
    if (inside > 0) texts[texts.length - 1] += text;
  };
  parser.write(xml).close();
  return texts;
}

/** Any UTF-16 code unit, lone surrogates and control characters included, with markup-like text mixed in. */
const anyName = fc.string({ unit: fc.oneof(fc.integer({ min: 0, max: 0xffff }).map((n) => String.fromCharCode(n)), fc.constantFrom('&', '<', '>', '"', "'", ']]>', '&amp;', '&lt;')), minLength: 1, maxLength: 60 });

const renderer = new PublicRenderer();
const NOW = new Date('2026-03-01T00:00:00.000Z');

function page(name: string, description: string): StatusPageDetailView {
  return { id: 'p', accountId: 'a', name, description, url: 'acme', customDomain: null, logo: null, logoDark: null, favicon: null, redirectTo: null, defaultTheme: 'AUTO', themeColors: { light: {}, dark: {} }, cards: [], incidents: [], created_at: NOW.toISOString(), updated_at: NOW.toISOString() } as unknown as StatusPageDetailView;
}

function incident(name: string, update: string): IncidentView {
  const at = NOW.toISOString();
  return {
    id: '01900000-0000-7000-8000-000000000001',
    name,
    severity: 'MAJOR',
    lastUpdateStatus: 'INVESTIGATING',
    services: [],
    incidentUpdates: [{ id: 'u', description: update, status: 'INVESTIGATING', publicIncidentUpdateDate: at, notifySubscribers: false, created_at: at }],
    created_at: at,
    updated_at: at,
  } as unknown as IncidentView;
}

describe('badges and feeds are valid XML whatever a name holds (issue 32, item 14)', () => {
  it('a badge: well-formed, and its title says the name (characters XML cannot hold shown as U+FFFD)', () => {
    fc.assert(
      fc.property(anyName, (name) => {
        const svg = renderer.badge(name, 'operational', '#15803d');
        const [title] = parse(svg, 'title');
        expect(title.endsWith(': operational')).toBe(true);
        expect(title.includes('\ufffd') || !/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/.test(name)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('RSS and Atom: well-formed, channel title and description escaped, item titles as written', () => {
    fc.assert(
      fc.property(anyName, anyName, anyName, (pageName, description, incidentName) => {
        const feed = incidentFeed(renderer.markdown, page(pageName, description), 'https://status.example.com', [incident(incidentName, description)], NOW);
        const safe = (text: string) => text.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|\p{Cs}/gu, '\ufffd');
        const rss = feed.rss2();
        const [channelTitle, itemTitle] = parse(rss, 'title');
        expect(channelTitle).toBe(`${safe(pageName)} – incident history`);
        expect(parse(rss, 'description')[0]).toBe(safe(description));
        // Item titles are HTML (Atom's type="html"): their text is the name escaped once.
        expect(itemTitle).toBe(safe(incidentName).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!));
        const atom = feed.atom1();
        expect(parse(atom, 'title')[0]).toBe(`${safe(pageName)} – incident history`);
        expect(parse(atom, 'subtitle')[0]).toBe(safe(description));
      }),
      { numRuns: 200 },
    );
  });
});
