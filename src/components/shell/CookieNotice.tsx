import { useStore } from '@nanostores/react';
import { useState } from 'react';
import { $config } from '../../stores/config.ts';
import { useT } from '../../stores/i18n.ts';

const KEY = 'cookie_notice_dismissed';

/**
 * Shown until dismissed once (the choice is remembered in this browser), unless an admin turned it
 * off. In the page's flow, above the screen's content: fixed over the page, it covered the buttons
 * at the bottom of forms until dismissed.
 */
export function CookieNotice() {
  const t = useT();
  const enabled = useStore($config)?.cookieNotice !== false;
  const [visible, setVisible] = useState(() => localStorage.getItem(KEY) !== '1');
  if (!visible || !enabled) return null;
  return (
    <div role="region" aria-label={t('cookie.label')} className="mb-6 flex flex-wrap items-center justify-between gap-x-4 gap-y-2 rounded-card border border-border bg-surface px-4 py-3 text-sm">
      <p className="min-w-0 flex-1 text-muted">{t('cookie.text')}</p>
      <button
        type="button"
        className="btn-secondary shrink-0 px-3 py-1.5 text-sm"
        onClick={() => {
          localStorage.setItem(KEY, '1');
          setVisible(false);
        }}
      >
        {t('cookie.accept')}
      </button>
    </div>
  );
}
