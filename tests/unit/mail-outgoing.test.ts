import { describe, expect, it } from 'vitest';
import { displayName, escapeHtml, htmlParagraphs } from '../../src/server/mail/outgoing.ts';

describe('a display name in a subject', () => {
  it('is one clean line: no CR/LF, controls, line separators or direction characters', () => {
    expect(displayName('Eve\r\nBcc: victim@example.test')).toBe('Eve Bcc: victim@example.test');
    expect(displayName('a\u0000b\u0085c\u2028d')).toBe('a b c d');
    expect(displayName('evil\u202Egpj.exe')).toBe('evil gpj.exe');
    expect(displayName('  Ada   Lovelace ')).toBe('Ada Lovelace');
  });

  it('is at most 60 characters, and "Someone" when nothing is left', () => {
    const long = displayName('x'.repeat(500));
    expect([...long]).toHaveLength(60);
    expect(long.endsWith('…')).toBe(true);
    expect(displayName('\r\n\u202E ')).toBe('Someone');
    expect(displayName('Zoë 🎉')).toBe('Zoë 🎉');
  });
});

describe('user text in a mail’s HTML part', () => {
  it('is escaped, line breaks kept', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
    expect(htmlParagraphs('one <b>\ntwo', 'three')).toBe('<p>one &lt;b&gt;<br>two</p>\n<p>three</p>');
  });
});
