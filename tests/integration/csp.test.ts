import { describe, expect, it } from 'vitest';
import { THEME_SCRIPT } from '../../src/server/http/csp.ts';
import { putSettings } from '../../src/server/settings/service.ts';
import { registerUser } from '../support/client.ts';
import { download } from '../support/downloads.ts';
import { seedFile, useSeededServer } from '../support/seed.ts';

const env = useSeededServer();

function directives(header: string | null): Map<string, string> {
  const map = new Map<string, string>();
  for (const part of (header ?? '').split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) map.set(name, values.join(' '));
  }
  return map;
}

describe('the pages’ Content-Security-Policy', () => {
  it('allows scripts only from this site or by hash, the theme script by its own', async () => {
    for (const path of ['/', '/sign-in', '/sign-up', '/contact-us', '/page/terms-of-service', '/no-such-page']) {
      const res = await fetch(env.server.url + path, { redirect: 'manual' });
      const csp = directives(res.headers.get('content-security-policy'));
      expect(csp.get('script-src'), path).toMatch(/^'self'/);
      expect(csp.get('script-src'), path).toContain(`'${THEME_SCRIPT.hash}'`);
      expect(csp.get('script-src'), path).not.toContain('unsafe');
      expect(csp.get('default-src'), path).toBe("'self'");
      expect(csp.get('object-src'), path).toBe("'none'");
      expect(csp.get('frame-ancestors'), path).toBe("'none'");
      expect(csp.get('base-uri'), path).toBe("'self'");
      // The page really carries the script the hash allows, unchanged.
      expect(await res.text(), path).toContain(`<script>${THEME_SCRIPT.source}</script>`);
    }
  });

  it('adds the bot check’s provider on the contact page only, and only while it is on', async () => {
    await putSettings(env.seed, { allowed_recaptcha: true, recaptcha_client_id: 'site-key' });
    try {
      const contact = directives((await fetch(`${env.server.url}/contact-us`)).headers.get('content-security-policy'));
      expect(contact.get('script-src')).toMatch(/^'self' https:\/\/www\.google\.com\/recaptcha\//);
      expect(contact.get('frame-src')).toContain('https://www.google.com/recaptcha/');
      const home = directives((await fetch(`${env.server.url}/`)).headers.get('content-security-policy'));
      expect(home.get('script-src')).not.toContain('google');
    } finally {
      await putSettings(env.seed, { allowed_recaptcha: false, recaptcha_client_id: '' });
    }
  });
});

describe('inline previews of active content', () => {
  it('shows a PDF inline only under a sandboxing CSP without scripts, framed by our pages alone', async () => {
    const owner = await registerUser(env.server.url);
    const file = await seedFile(env.seed, owner.user.id, { name: 'report.pdf', mimetype: 'application/pdf', content: '%PDF-1.4 /JS (app.alert(1))' });
    const res = await download(env.server.url, `/file/${file.id}`, owner.client);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toMatch(/^inline;/);
    const csp = directives(res.headers.get('content-security-policy'));
    expect(csp.has('sandbox')).toBe(true);
    expect(csp.get('sandbox')).toBe('');
    expect(csp.get('default-src')).toBe("'none'");
    expect(csp.get('script-src')).toBe("'none'");
    expect(csp.get('frame-ancestors')).toBe("'self'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('never shows HTML or SVG inline, and sandboxes them', async () => {
    const owner = await registerUser(env.server.url);
    for (const [name, mimetype] of [['page.html', 'text/html'], ['drawing.svg', 'image/svg+xml']] as const) {
      const file = await seedFile(env.seed, owner.user.id, { name, mimetype, content: '<script>alert(1)</script>' });
      const res = await download(env.server.url, `/file/${file.id}`, owner.client);
      expect(res.headers.get('content-disposition'), name).toMatch(/^attachment;/);
      expect(res.headers.get('content-security-policy'), name).toMatch(/^sandbox; default-src 'none'/);
    }
  });
});
