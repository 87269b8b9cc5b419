import type { AstroGlobal } from 'astro';
import { BOT_CHECK_FRAME_DIRECTIVE, BOT_CHECK_SCRIPT_SOURCES } from '../http/csp.ts';
import { getSettings } from '../settings/service.ts';
import { botCheckScriptUrl, botCheckSiteKey, type BotCheckAction } from './bot-check.ts';

/** What a page's checked form needs (src/components/astro/BotCheck.astro): null while the check is off. */
export interface BotCheckForm {
  siteKey: string;
  action: BotCheckAction;
  /** The provider's script with the site key (`?render=`), as reCAPTCHA v3 loads it. */
  scriptSrc: string;
}

/**
 * The bot check for a page's form, with the provider's script (and frame) allowed by the page's
 * CSP. Call it in the page itself: Astro sends the CSP header before a layout's frontmatter runs.
 */
export async function botCheckForPage(astro: Pick<AstroGlobal, 'locals' | 'csp'>, action: BotCheckAction): Promise<BotCheckForm | null> {
  const { ctx } = astro.locals;
  const siteKey = botCheckSiteKey(await getSettings(ctx));
  if (!siteKey) return null;
  const script = new URL(botCheckScriptUrl(ctx));
  script.searchParams.set('render', siteKey);
  if (ctx.config.botCheck.scriptUrl) {
    // A provider (or a test's stand-in) of the operator's choosing: its origin only, no Google hosts.
    for (const source of ["'self'", script.origin]) astro.csp?.insertScriptResource(source);
  } else {
    for (const source of BOT_CHECK_SCRIPT_SOURCES) astro.csp?.insertScriptResource(source);
    astro.csp?.insertDirective(BOT_CHECK_FRAME_DIRECTIVE);
  }
  return { siteKey, action, scriptSrc: script.href };
}
