import type { AstroGlobal } from 'astro';
import { ADS_DIRECTIVES, ADS_SCRIPT_SOURCES } from '../http/csp.ts';
import { getSettings } from '../settings/service.ts';

/**
 * Ads on the public pages (homepage, /page/:slug, contact), never in the app or on share pages:
 * a page opts in by calling `adsForPage` in its frontmatter and handing the result to SiteLayout.
 * Nothing from the ad network loads before the visitor accepts in the cookie notice (the choice is
 * the `cookie_consent` cookie, so the server knows it too); a visitor who declined gets no slots,
 * no script and no ad origins in the CSP.
 */
export const PUBLISHER_ID = /^ca-pub-\d{16}$/;
export const SLOT_ID = /^\d{10}$/;
export const CONSENT_COOKIE = 'cookie_consent';
export const ADS_SCRIPT_URL = 'https://pagead2.googlesyndication.com/pagead/js/adsbygoogle.js';

export interface PublicAds {
  client: string;
  headerSlot: string | null;
  footerSlot: string | null;
  /** The visitor accepted earlier: the page carries the script; otherwise the notice asks first. */
  consented: boolean;
  scriptUrl: string;
}

/**
 * The ads this page shows, or null; opens the CSP for the ad network when there are any. Called in
 * the page itself: Astro sends the CSP header before a layout's frontmatter runs.
 */
export async function adsForPage(astro: Pick<AstroGlobal, 'locals' | 'cookies' | 'csp'>): Promise<PublicAds | null> {
  const { adsense } = await getSettings(astro.locals.ctx);
  // Read per request (settings apply at once) and checked again here: only strict ids reach the page.
  if (adsense?.enabled !== true || !PUBLISHER_ID.test(adsense.publisher_id ?? '')) return null;
  const consent = astro.cookies.get(CONSENT_COOKIE)?.value;
  if (consent === 'declined') return null;
  for (const source of ADS_SCRIPT_SOURCES) astro.csp?.insertScriptResource(source);
  for (const directive of ADS_DIRECTIVES) astro.csp?.insertDirective(directive);
  return {
    client: adsense.publisher_id,
    headerSlot: SLOT_ID.test(adsense.header_slot ?? '') ? adsense.header_slot : null,
    footerSlot: SLOT_ID.test(adsense.footer_slot ?? '') ? adsense.footer_slot : null,
    consented: consent === 'accepted',
    scriptUrl: `${ADS_SCRIPT_URL}?client=${adsense.publisher_id}`,
  };
}
