import { markdownHtml, markdownText, statusWord } from './email-markdown';

const UPDATE = 'We found the **cause**: a [bad deploy](https://example.com/x).\n\n- rolled back\n- monitoring\n\nSee https://status.example.com <script>alert(1)</script> ![img](http://x/y.png) [x](javascript:alert(1))';

describe('incident updates in subscriber emails', () => {
  it('HTML part: Markdown rendered, raw HTML escaped, no images, no unsafe links', () => {
    const html = markdownHtml(UPDATE);
    expect(html).toContain('<strong>cause</strong>');
    expect(html).toContain('<a href="https://example.com/x">bad deploy</a>');
    expect(html).toContain('<li>rolled back</li>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('href="javascript');
  });

  it('text part: readable, without Markdown marks, links with their address', () => {
    const text = markdownText(UPDATE);
    expect(text).toContain('We found the cause: a bad deploy (https://example.com/x).');
    expect(text).toContain('- rolled back\n- monitoring');
    expect(text).toContain('See https://status.example.com <script>alert(1)</script>');
    expect(text).not.toContain('**');
    expect(text).not.toContain('[bad deploy]');
  });

  it('statuses as words', () => {
    expect(['INVESTIGATING', 'IDENTIFIED', 'MONITORING', 'RESOLVED'].map(statusWord)).toEqual(['Investigating', 'Identified', 'Monitoring', 'Resolved']);
  });
});
