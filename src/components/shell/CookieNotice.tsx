import { useStore } from '@nanostores/react';
import { useState } from 'react';
import { $config } from '../../stores/config.ts';
import { useT } from '../../stores/i18n.ts';
import { bottomPanel } from '../../stores/ui.ts';

const KEY = 'cookie_notice_dismissed';

/** Shown until dismissed once (the choice is remembered in this browser), unless an admin turned it off. */
export function CookieNotice() {
  const t = useT();
  const enabled = useStore($config)?.cookieNotice !== false;
  const [visible, setVisible] = useState(() => localStorage.getItem(KEY) !== '1');
  if (!visible || !enabled) return null;
  return (
    <div ref={bottomPanel('cookie-notice')} role="region" aria-label={t('cookie.label')} className="fixed bottom-4 left-4 z-40 flex max-w-sm items-center gap-4 rounded-card border border-border bg-surface px-4 py-3 text-sm shadow-lg lg:left-[264px]">
      <p className="text-muted">{t('cookie.text')}</p>
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
