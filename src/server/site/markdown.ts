import MarkdownIt from 'markdown-it';

// Raw HTML off: any tag in the source is shown as text, never rendered. markdown-it's link check
// already refuses javascript:, vbscript:, file: and non-image data: URLs.
const md = new MarkdownIt({ html: false, linkify: true, typographer: false });

const defaultLinkOpen = md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  const href = String(tokens[idx]!.attrGet('href') ?? '');
  if (/^https?:\/\//i.test(href)) tokens[idx]!.attrSet('rel', 'nofollow noopener noreferrer');
  return defaultLinkOpen(tokens, idx, options, env, self);
};

/** A page's Markdown as safe HTML. */
export function renderMarkdown(source: string): string {
  return md.render(source);
}
