import MarkdownIt from 'markdown-it';

type Token = ReturnType<Markdown['parseInline']>[number];
export type Markdown = InstanceType<typeof MarkdownIt>;

const ALLOWED_LINK = /^(https?:|mailto:)/i;

/**
 * The Markdown subset of incident texts: no raw HTML, no images (they would be third-party
 * requests), links only to http, https and mailto, each with rel="nofollow noopener".
 */
export function createMarkdown(): Markdown {
  const md = new MarkdownIt({ html: false, linkify: true, typographer: false });
  md.disable(['image']);
  md.validateLink = (url: string) => ALLOWED_LINK.test(url.trim());
  const defaultLinkOpen = md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
  md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
    tokens[idx].attrSet('rel', 'nofollow noopener');
    return defaultLinkOpen(tokens, idx, options, env, self);
  };
  return md;
}

/** Plain text of a Markdown text, for feeds' summaries and meta descriptions. */
export function plainText(md: Markdown, text: string): string {
  const tokens = md.parseInline(text, {});
  return tokens
    .flatMap((t): Token[] => t.children ?? [t])
    .filter((t: Token) => t.type === 'text' || t.type === 'code_inline' || t.type === 'softbreak')
    .map((t: Token) => (t.type === 'softbreak' ? ' ' : t.content))
    .join('');
}
