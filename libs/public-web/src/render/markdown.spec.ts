import { createMarkdown, plainText } from './markdown';
import { barRuns } from './public-renderer';

describe('incident Markdown', () => {
  const md = createMarkdown();

  it('renders the safe subset: emphasis, lists, code, http/https/mailto links with rel', () => {
    expect(md.render('**bold** `code` [x](https://a.example/p?q=1) <mailto:ops@example.com>')).toBe(
      '<p><strong>bold</strong> <code>code</code> <a href="https://a.example/p?q=1" rel="nofollow noopener">x</a> <a href="mailto:ops@example.com" rel="nofollow noopener">mailto:ops@example.com</a></p>\n',
    );
  });

  it.each([
    ['<script>alert(1)</script>', '&lt;script&gt;alert(1)&lt;/script&gt;'],
    ['[x](javascript:alert(1))', '[x](javascript:alert(1))'],
    ['[x](JaVaScRiPt:alert(1))', '[x](JaVaScRiPt:alert(1))'],
    ['[x](data:text/html;base64,PHNjcmlwdD4=)', '[x](data:text/html;base64,PHNjcmlwdD4=)'],
    ['<img src=x onerror=alert(1)>', '&lt;img src=x onerror=alert(1)&gt;'],
    ['[x](vbscript:msgbox)', '[x](vbscript:msgbox)'],
  ])('keeps %s as text', (input, text) => {
    const html = md.render(input);
    expect(html).toContain(text);
    expect(html).not.toMatch(/<(script|img|a )/);
  });

  it('shows an image as a plain link: nothing is loaded from elsewhere', () => {
    expect(md.render('![t](https://tracker.example/p.png)')).toBe('<p>!<a href="https://tracker.example/p.png" rel="nofollow noopener">t</a></p>\n');
  });

  it('gives plain text for summaries', () => {
    expect(plainText(md, 'We **fixed** [it](https://x.example)')).toBe('We fixed it');
  });
});

describe('uptime bar runs', () => {
  it('groups clean days, keeps every other day alone, and says each in words', () => {
    const runs = barRuns([
      { day: '2026-11-16', status: 'no_data', uptime: null, incidents: 0 },
      { day: '2026-11-17', status: 'operational', uptime: 100, incidents: 0 },
      { day: '2026-11-18', status: 'operational', uptime: 100, incidents: 0 },
      { day: '2026-11-19', status: 'partial_outage', uptime: 99.31, incidents: 1 },
      { day: '2026-11-20', status: 'operational', uptime: 100, incidents: 0 },
    ]);
    expect(runs).toEqual([
      { code: 'nd', days: 1, text: '16 Nov 2026: no data', old: false },
      { code: 'op', days: 2, text: '17 – 18 Nov 2026: 100 % uptime, no incidents', old: false },
      { code: 'po', days: 1, text: '19 Nov 2026: 99.31 % uptime, 1 incident (partial outage)', old: false },
      { code: 'op', days: 1, text: '20 Nov 2026: 100 % uptime, no incidents', old: false },
    ]);
  });

  it('splits runs at the first of the last 30 days, which narrow screens show alone', () => {
    const bars = Array.from({ length: 90 }, (_, i) => ({ day: new Date(Date.UTC(2026, 7, 31) + i * 86_400_000).toISOString().slice(0, 10), status: 'operational' as const, uptime: 100, incidents: 0 }));
    const runs = barRuns(bars);
    expect(runs.map((run) => [run.days, run.old])).toEqual([
      [60, true],
      [30, false],
    ]);
    expect(runs[1].text).toBe('30 Oct – 28 Nov 2026: 100 % uptime, no incidents');
  });
});
