import Handlebars from 'handlebars';
import { xml2js, Element } from 'xml-js';
import { startTestServer, TestAccount, TestServer } from '../../libs/testing/src/test-server';

/** Strings that break out of HTML text, attributes, URLs, CDATA sections, templates and text direction. */
const CORPUS = [
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  "' onmouseover='alert(1)' x='",
  'javascript:alert(1)',
  '[click](javascript:alert(1)) <a href="javascript:alert(1)">x</a>',
  ']]><script>alert(1)</script><![CDATA[',
  'a]]>b]]>c]]>',
  '</title></style></textarea><svg onload=alert(1)>',
  '{{constructor.constructor("alert(1)")()}} {{{x}}}',
  '&lt;script&gt;alert(1)&lt;/script&gt; &amp;',
  'ltr \u202Egnp.exe\u202C rtl \u2066x\u2069',
  '<!-- --><![CDATA[ x ]]><?xml version="1.0"?>',
];

const ATTRIBUTE_URL = `https://example.com/a"onerror="alert(1)'x.png?q='onload='alert(2)`;
const LONG = ('<"]]>' + 'A'.repeat(45)).repeat(200); // 10 000 characters: the update description limit
const name = (s: string) => s.slice(0, 255);

/** Tags a public page may contain; anything else came from a stored string. */
const HTML_TAGS = new Set(['html', 'head', 'meta', 'title', 'link', 'body', 'a', 'header', 'div', 'nav', 'ul', 'ol', 'li', 'main', 'h1', 'h2', 'h3', 'p', 'span', 'section', 'article', 'time', 'strong', 'em', 'code', 'pre', 'form', 'label', 'input', 'button', 'footer', 'br', 'blockquote', 'hr', 's', 'img']);
const SVG_TAGS = new Set(['svg', 'title', 'linearGradient', 'stop', 'clipPath', 'rect', 'g', 'text']);
const SAFE_URL = /^(\/|#|https:\/\/|http:\/\/|mailto:)/;

/** Every tag of an HTML text is a known one, no attribute is an event handler, every URL attribute is safe. */
function expectHarmlessHtml(html: string, where: string) {
  expect([where, /<script|<\/script/i.test(html)]).toEqual([where, false]);
  expect([where, /<!\[CDATA\[|<\?xml|<!--/i.test(html)]).toEqual([where, false]);
  for (const match of html.matchAll(/<\/?([a-zA-Z][a-zA-Z0-9]*)([^>]*)>/g)) {
    const [tag, tagName, attributes] = match;
    expect([where, tag, HTML_TAGS.has(tagName.toLowerCase())]).toEqual([where, tag, true]);
    // Attribute values are quoted and escaped: no quote inside one, so the attribute list parses exactly.
    const rest = attributes.replace(/\s+([a-zA-Z-]+)(="[^"<>]*")?/g, (_, attr: string, value?: string) => {
      expect([where, tag, attr.toLowerCase().startsWith('on')]).toEqual([where, tag, false]);
      if (value && ['href', 'src', 'action'].includes(attr.toLowerCase())) expect([where, tag, SAFE_URL.test(value.slice(2, -1))]).toEqual([where, tag, true]);
      return '';
    });
    expect([where, tag, rest.replace(/\s*\/?$/, '')]).toEqual([where, tag, '']);
  }
}

/** Well-formed XML (the parser throws otherwise); returns the text and CDATA of each element, by name. */
function xmlTexts(xml: string): { name: string; path: string; text: string }[] {
  const out: { name: string; path: string; text: string }[] = [];
  const walk = (element: Element, parent: string) => {
    const text = (element.elements ?? []).filter((e) => e.type === 'text' || e.type === 'cdata').map((e) => String(e.text ?? e.cdata)).join('');
    const path = element.name ? `${parent}/${element.name}` : parent;
    if (element.name) out.push({ name: element.name, path, text });
    for (const child of element.elements ?? []) if (child.type === 'element') walk(child, path);
  };
  walk(xml2js(xml, { compact: false }) as Element, '');
  return out;
}

let server: TestServer;
let account: TestAccount;

beforeAll(async () => {
  server = await startTestServer({ env: { VIGIL_RATE_LIMIT_PER_MINUTE: '100000' } });
  account = await server.account();
});
afterAll(() => server.close());

describe('hostile strings in every user field are harmless in every output', () => {
  it.each(CORPUS.map((s, i) => [i, s]))('corpus entry %i', async (i, hostile) => {
    const key = { key: account.key };
    const service = await server.http.post('/v1/status-pages/services', { name: name(`${hostile} svc`) }, key);
    expect(service.status).toBe(201);
    const page = await server.http.post(
      '/v1/status-pages',
      {
        name: name(hostile),
        url: `hostile-${i}`,
        description: hostile.slice(0, 500),
        cards: [{ name: name(`${hostile} card`), services: [{ id: service.body.id }] }],
        // Attribute breakers the URL validation lets through: they must stay inside their attributes.
        redirectTo: ATTRIBUTE_URL,
        logo: ATTRIBUTE_URL,
        logoDark: `${ATTRIBUTE_URL}&dark`,
        favicon: `${ATTRIBUTE_URL}&icon`,
      },
      key,
    );
    expect(page.status).toBe(201);
    const incident = await server.http.post(
      '/v1/status-pages/incidents',
      {
        name: name(hostile),
        severity: 'CRITICAL',
        services: [{ id: service.body.id }],
        incidentUpdates: [
          { description: hostile, status: 'INVESTIGATING', publicIncidentUpdateDate: new Date(Date.now() - 60_000).toISOString() },
          { description: LONG, status: 'IDENTIFIED' },
        ],
      },
      key,
    );
    expect(incident.status).toBe(201);
    const base = `/status/hostile-${i}`;

    for (const path of ['', '/history', `/incidents/${incident.body.id}`]) {
      const response = await server.http.get(base + path);
      const html = response.text;
      expectHarmlessHtml(html, `html ${path}`);
      // Images only from here and the logo's own origin.
      expect(response.headers.get('content-security-policy')).toContain("img-src 'self' https://example.com;");
      expect(html).toContain(`<img src="${Handlebars.escapeExpression(ATTRIBUTE_URL)}" alt="" class="logo-light">`);
      // The strings are there, as escaped text.
      expect(html).toContain(Handlebars.escapeExpression(name(hostile)));
      if (path === '') expect(html).toContain(Handlebars.escapeExpression(name(`${hostile} svc`)));
    }

    for (const path of ['/history.rss', '/history.atom']) {
      const xml = (await server.http.get(base + path)).text;
      const texts = xmlTexts(xml);
      // Entries' titles, summaries and contents are HTML (Atom type="html", RSS in practice): user text in them is escaped HTML.
      const html = texts.filter((t) => /\/(item|entry)\/(title|description|summary|content|content:encoded)$/.test(t.path));
      expect(html.length).toBeGreaterThanOrEqual(3);
      for (const t of html) expectHarmlessHtml(t.text, `${path} ${t.path}`);
      const escaped = name(hostile).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
      expect(html.filter((t) => t.name === 'title').map((t) => t.text)).toEqual([escaped]);
      // The feed's own title is plain text (RSS channel, Atom type text): the name, as data.
      const feedTitle = texts.find((t) => t.path === '/rss/channel/title' || t.path === '/feed/title')!;
      expect(feedTitle.text).toBe(`${name(hostile)} – incident history`);
    }

    for (const path of ['/badge.svg', `/badge.svg?service=${service.body.id}`]) {
      const svg = (await server.http.get(base + path)).text;
      expect(/<script|\son\w+=/i.test(svg)).toBe(false);
      xmlTexts(svg);
      for (const match of svg.matchAll(/<\/?([a-zA-Z]+)/g)) expect([path, SVG_TAGS.has(match[1])]).toEqual([path, true]);
    }
    const badge = (await server.http.get(`${base}/badge.json?service=${service.body.id}`)).body;
    expect(badge.label).toBe(name(`${hostile} svc`));

    // JSON carries the strings as data, exactly as stored.
    const summary = await server.http.get(`${base}/api/v2/summary.json`);
    expect(summary.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(summary.body.page.name).toBe(name(hostile));
    expect(summary.body.incidents[0].name).toBe(name(hostile));
    expect(summary.body.incidents[0].incident_updates.map((u: { body: string }) => u.body)).toEqual([LONG, hostile]);
    expect(summary.body.components.map((c: { name: string }) => c.name)).toEqual([name(`${hostile} card`), name(`${hostile} svc`)]);
  });
});
