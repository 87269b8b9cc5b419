import { createHash } from 'node:crypto';

/**
 * The pages' Content-Security-Policy. Astro (`security.csp` in astro.config.mjs) sends it as a header
 * with the hashes of the scripts it bundles; a script we write inline ourselves is allowed by its
 * own hash (`INLINE_SCRIPT_HASHES`, given to the config: a hash added while a layout renders comes too
 * late for the header), so no page ever needs `'unsafe-inline'` for scripts. Styles keep
 * `'unsafe-inline'`: Radix and the brand colour set inline styles, and a style cannot run code.
 */
export const PAGE_CSP_DIRECTIVES = [
  "default-src 'self'",
  "img-src 'self' https: data: blob:",
  "media-src 'self' blob:",
  "connect-src 'self'",
  "font-src 'self' data:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "frame-src 'self'",
  "worker-src 'self' blob:",
] as const;

export interface InlineScript {
  source: string;
  /** `sha256-…`, for `Astro.csp.insertScriptHash`. */
  hash: string;
}

/** An inline script's text with the CSP hash that lets exactly that text run. */
export function inlineScript(source: string): InlineScript {
  return { source, hash: `sha256-${createHash('sha256').update(source).digest('base64')}` };
}

/** Before first paint: the user's saved choice, else this browser's, else the instance default. */
export const THEME_SCRIPT = inlineScript(`(function () {
  var d = document.documentElement;
  var mode = d.dataset.themeUser || localStorage.getItem('theme_mode') || d.dataset.themeDefault || 'system';
  var dark = mode === 'dark' || (mode === 'system' && matchMedia('(prefers-color-scheme: dark)').matches);
  d.classList.toggle('dark', dark);
})();`);

/**
 * The bot check on a form (src/components/astro/BotCheck.astro, inside the form): loads the
 * provider's script, and on submit executes the form's named action and sends the token in
 * `recaptcha_token`. Without the provider (blocked, failed to load) the form goes without a token
 * and the server answers with its message rather than the page hanging.
 */
export const BOT_CHECK_SCRIPT = inlineScript(`(function () {
  var me = document.currentScript;
  var form = me.closest('form');
  var provider = { done: false, waiting: null };
  var settle = function () {
    provider.done = true;
    if (provider.waiting) provider.waiting();
  };
  var script = document.createElement('script');
  script.async = true;
  script.src = me.dataset.src;
  script.addEventListener('load', settle);
  script.addEventListener('error', settle);
  document.head.appendChild(script);
  form.addEventListener('submit', function (event) {
    if (form.dataset.botChecked) return;
    event.preventDefault();
    if (form.dataset.botChecking) return;
    form.dataset.botChecking = '1';
    var send = function (token) {
      form.elements.recaptcha_token.value = typeof token === 'string' ? token : '';
      form.dataset.botChecked = '1';
      form.submit();
    };
    var run = function () {
      if (!window.grecaptcha) return send('');
      window.grecaptcha.ready(function () {
        window.grecaptcha.execute(me.dataset.key, { action: me.dataset.action }).then(send, function () { send(''); });
      });
    };
    if (provider.done) run();
    else provider.waiting = run;
  });
  // Back to a sent form (back/forward cache): a new submit needs a new token.
  window.addEventListener('pageshow', function () {
    delete form.dataset.botChecked;
    delete form.dataset.botChecking;
  });
})();`);

/**
 * The public pages' ads (src/server/site/ads.ts): nothing from the ad network loads before the
 * visitor accepts in the cookie notice. Then the script is added and each slot filled; a decline is
 * remembered and removes the slots. With consent given earlier, the page carries the script tag
 * itself and this only fills the slots.
 */
export const ADS_SCRIPT = inlineScript(`(function () {
  var me = document.currentScript;
  var units = function () { return document.querySelectorAll('[data-ad-unit]'); };
  var fill = function () {
    units().forEach(function (unit) {
      unit.hidden = false;
      (window.adsbygoogle = window.adsbygoogle || []).push({});
    });
  };
  if (me.dataset.consent === 'accepted') return fill();
  var notice = document.getElementById('ads-consent');
  var remember = function (choice) {
    document.cookie = 'cookie_consent=' + choice + '; Path=/; Max-Age=31536000; SameSite=Lax' + (location.protocol === 'https:' ? '; Secure' : '');
    notice.remove();
  };
  notice.querySelector('[data-consent="accepted"]').addEventListener('click', function () {
    remember('accepted');
    var script = document.createElement('script');
    script.async = true;
    script.crossOrigin = 'anonymous';
    script.src = me.dataset.src;
    document.head.appendChild(script);
    fill();
  });
  notice.querySelector('[data-consent="declined"]').addEventListener('click', function () {
    remember('declined');
    units().forEach(function (unit) { unit.remove(); });
  });
  notice.hidden = false;
})();`);

/**
 * In the app's document, right after the addresses of the opening screen's first page
 * (`#app-first-listing`, one per sorting, src/server/config/first-listing.ts): asks for the one this
 * browser's saved sorting names while the document is still being read, so the answer is there when
 * the app's scripts have run. The app takes the request if it names the page it wants
 * (takeFirstListingRequest in src/stores/boot.ts) and asks again otherwise.
 */
export const FIRST_LISTING_SCRIPT = inlineScript(`(function () {
  var el = document.getElementById('app-first-listing');
  if (!el || typeof fetch !== 'function') return;
  try {
    var urls = JSON.parse(el.textContent);
    var saved = null;
    try { saved = JSON.parse(localStorage.getItem('sorting')); } catch (e) {}
    var url = (saved && urls[saved.field + ' ' + saved.direction]) || urls['default'];
    if (!url) return;
    window.__firstListing = { url: url, response: fetch(url, { headers: { Accept: 'application/json', 'X-Requested-With': 'XMLHttpRequest' }, credentials: 'same-origin' }) };
  } catch (e) {}
})();`);

export const INLINE_SCRIPT_HASHES = [THEME_SCRIPT.hash, FIRST_LISTING_SCRIPT.hash, BOT_CHECK_SCRIPT.hash, ADS_SCRIPT.hash];

/**
 * The bot check's provider script and frame, added on the pages with a checked form while it is on
 * (src/server/auth/bot-check-page.ts). A script URL from the environment (BOT_CHECK_SCRIPT_URL)
 * replaces Google's hosts with its own origin.
 */
// Inserting a resource replaces Astro's default 'self', so it is listed again.
export const BOT_CHECK_SCRIPT_SOURCES = ["'self'", 'https://www.google.com/recaptcha/', 'https://www.gstatic.com/recaptcha/'];
export const BOT_CHECK_FRAME_DIRECTIVE = 'frame-src https://www.google.com/recaptcha/ https://recaptcha.google.com/recaptcha/';

/**
 * The ad network's script, frames and beacons, added on the public pages only while ads are on and
 * the visitor has not declined (src/server/site/ads.ts). Images are already allowed from https:.
 */
export const ADS_SCRIPT_SOURCES = ["'self'", 'https://pagead2.googlesyndication.com', 'https://tpc.googlesyndication.com', 'https://*.adtrafficquality.google'];
export const ADS_DIRECTIVES = [
  'frame-src https://googleads.g.doubleclick.net https://tpc.googlesyndication.com https://*.adtrafficquality.google https://www.google.com',
  'connect-src https://pagead2.googlesyndication.com https://*.adtrafficquality.google',
] as const;
