import MarkdownIt from 'markdown-it';

type Token = ReturnType<InstanceType<typeof MarkdownIt>['parse']>[number];

const ALLOWED_LINK = /^(https?:|mailto:)/i;

/** The Markdown of incident updates as email shows it: no raw HTML, no images (remote requests), safe links only. */
const md = new MarkdownIt({ html: false, linkify: true, typographer: false });
md.disable(['image']);
md.validateLink = (url: string) => ALLOWED_LINK.test(url.trim());

/** HTML for the email's HTML part: user HTML is escaped by markdown-it, never passed through. */
export function markdownHtml(text: string): string {
  return md.render(text);
}

function inlineText(tokens: Token[]): string {
  let out = '';
  const hrefs: string[] = [];
  for (const t of tokens) {
    if (t.type === 'text' || t.type === 'code_inline') out += t.content;
    else if (t.type === 'softbreak' || t.type === 'hardbreak') out += '\n';
    else if (t.type === 'link_open') hrefs.push(String(t.attrGet('href') ?? ''));
    else if (t.type === 'link_close') {
      const href = hrefs.pop() ?? '';
      // A bare link reads as itself; a named one gets its address after it.
      if (href && !out.endsWith(String(href).replace(/^mailto:/, ''))) out += ` (${href})`;
    }
  }
  return out;
}

/** Readable plain text of a Markdown text (the email's text part): paragraphs, "- " lists, links with their address. */
export function markdownText(text: string): string {
  const blocks: string[] = [];
  const lists: { ordered: boolean; n: number }[] = [];
  let prefix = '';
  for (const t of md.parse(text, {})) {
    if (t.type === 'bullet_list_open' || t.type === 'ordered_list_open') lists.push({ ordered: t.type === 'ordered_list_open', n: Number(t.attrGet('start') ?? 1) });
    else if (t.type === 'bullet_list_close' || t.type === 'ordered_list_close') lists.pop();
    else if (t.type === 'list_item_open') {
      const list = lists[lists.length - 1];
      prefix = `${'  '.repeat(lists.length - 1)}${list.ordered ? `${list.n++}.` : '-'} `;
    } else if (t.type === 'inline') {
      const line = inlineText(t.children ?? []);
      blocks.push(prefix ? `${prefix}${line}` : line);
      prefix = '';
    } else if (t.type === 'fence' || t.type === 'code_block') blocks.push(t.content.replace(/\n$/, ''));
    else if (t.type === 'hr') blocks.push('---');
  }
  // List items stay together; other blocks are separated by a blank line.
  return blocks.reduce((all, block, i) => (i === 0 ? block : `${all}${/^\s*(-|\d+\.) /.test(block) && /^\s*(-|\d+\.) /.test(blocks[i - 1]) ? '\n' : '\n\n'}${block}`), '');
}

const STATUS_WORDS: Record<string, string> = { INVESTIGATING: 'Investigating', IDENTIFIED: 'Identified', MONITORING: 'Monitoring', RESOLVED: 'Resolved', SCHEDULED: 'Scheduled' };

/** "IDENTIFIED" → "Identified": a status as subscribers read it. */
export const statusWord = (status: string) => STATUS_WORDS[status] ?? status.charAt(0) + status.slice(1).toLowerCase();
