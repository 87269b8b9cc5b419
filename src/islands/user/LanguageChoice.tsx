import { useStore } from '@nanostores/react';
import { useId } from 'react';
import { $config } from '../../stores/config.ts';
import { useT } from '../../stores/i18n.ts';

const COOKIE = 'locale';

function chosenLocale(): string {
  return document.cookie.split('; ').find((c) => c.startsWith(`${COOKIE}=`))?.slice(COOKIE.length + 1) ?? '';
}

/**
 * The language this browser sees: the `locale` cookie the server reads on every request, or none
 * (the browser's languages, then the instance default). Pages load again in the new language.
 */
export function LanguageChoice() {
  const t = useT();
  const id = useId();
  const languages = useStore($config)?.languages ?? [];
  const pick = (code: string) => {
    const secure = location.protocol === 'https:' ? '; Secure' : '';
    // biome-ignore lint/suspicious/noDocumentCookie: the server reads this cookie on the reload; the Cookie Store API is not in every browser
    document.cookie = code ? `${COOKIE}=${encodeURIComponent(code)}; Path=/; Max-Age=31536000; SameSite=Lax${secure}` : `${COOKIE}=; Path=/; Max-Age=0; SameSite=Lax${secure}`;
    location.reload();
  };
  return (
    <div>
      <label className="label" htmlFor={id}>
        {t('admin_language.choice_label')}
      </label>
      <select id={id} className="input" defaultValue={decodeURIComponent(chosenLocale())} aria-describedby={`${id}-hint`} onChange={(e) => pick(e.target.value)}>
        <option value="">{t('admin_language.choice_automatic')}</option>
        {languages.map((language) => (
          <option key={language.code} value={language.code} lang={language.code}>
            {language.name}
          </option>
        ))}
      </select>
      <p id={`${id}-hint`} className="mt-1.5 text-xs text-muted">
        {t('admin_language.choice_hint')}
      </p>
    </div>
  );
}
