import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../src/server/site/markdown.ts';
import { isPageSlug } from '../../src/server/site/pages.ts';
import { isSetupPath } from '../../src/server/setup/paths.ts';
import { AdminSetupInput } from '../../src/server/setup/schemas.ts';

describe('page slugs', () => {
  it.each(['terms-of-service', 'privacy-policy', 'a', 'faq-2'])('accepts %s', (slug) => expect(isPageSlug(slug)).toBe(true));
  it.each(['', '..', '../etc/passwd', 'a/b', 'A', 'a--b', '-a', 'a-', 'a.b', 'a%2fb', 'a\u0000', 'x'.repeat(101)])('refuses %j', (slug) => expect(isPageSlug(slug)).toBe(false));
});

describe('page Markdown', () => {
  it('renders Markdown and shows raw HTML as text', () => {
    const html = renderMarkdown('## Hi\n\n<iframe src="https://evil.example"></iframe> **bold**');
    expect(html).toContain('<h2>Hi</h2>');
    expect(html).toContain('<strong>bold</strong>');
    expect(html).not.toContain('<iframe');
  });
  it.each(['javascript:alert(1)', 'JAVASCRIPT:alert(1)', 'vbscript:x', 'data:text/html;base64,PHNjcmlwdD4='])('never links to %s', (href) => {
    expect(renderMarkdown(`[x](${href})`)).not.toMatch(/href="(javascript|vbscript|data):/i);
  });
});

describe('setup paths', () => {
  it.each(['/install', '/setup-wizard/status-check', '/setup-wizard', '/api/setup/state'])('%s belongs to the wizard', (p) => expect(isSetupPath(p)).toBe(true));
  it.each(['/', '/installer', '/setup-wizardx', '/api/setupx', '/api/user'])('%s does not', (p) => expect(isSetupPath(p)).toBe(false));
});

describe('the admin password', () => {
  const base = { name: 'Ada', email: 'ada.lovelace@example.test' };
  const check = (password: string) => AdminSetupInput.safeParse({ ...base, password, password_confirmation: password }).success;
  it('wants a long, not guessable password', () => {
    expect(check('correct horse battery')).toBe(true);
    expect(check('short1')).toBe(false);
    expect(check('password123')).toBe(false);
    expect(check('abababababab')).toBe(false);
    expect(check('ada.lovelace-2024')).toBe(false);
  });
});
