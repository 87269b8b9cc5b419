import { useStore } from '@nanostores/react';
import { Check, LoaderCircle, Upload } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { Avatar } from '../../components/Avatar.tsx';
import { describedBy, FieldNotes } from '../../components/FieldNotes.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { useTitle } from '../../components/useTitle.ts';
import { ApiError } from '../../stores/api.ts';
import { useT } from '../../stores/i18n.ts';
import { applyTheme, type ThemeMode } from '../../stores/theme.ts';
import { showAlert, toast } from '../../stores/ui.ts';
import { $saveStates, $user, autoSave, saveSettings, uploadAvatar } from '../../stores/user.ts';
import { LanguageChoice } from './LanguageChoice.tsx';
import { SettingsNav } from './SettingsNav.tsx';

export default function ProfileScreen() {
  const t = useT();
  const user = useStore($user)!;
  const settings = user.relationships.settings.data.attributes;
  useTitle(t('profile.title'));
  return (
    <div>
      <PageHeader title={t('profile.title')} subtitle={t('profile.subtitle')} />
      <SettingsNav />
      <div className="flex flex-col gap-6">
        <AvatarCard />
        <section className="card p-6">
          <div className="grid gap-5 sm:grid-cols-2">
            <AutoSaveField field="name" label={t('profile.name')} initial={user.attributes.name} required className="sm:col-span-2" />
            <AutoSaveField field="first_name" label={t('profile.first_name')} initial={settings.first_name} />
            <AutoSaveField field="last_name" label={t('profile.last_name')} initial={settings.last_name} />
            <div className="sm:col-span-2">
              <label className="label" htmlFor="profile-email">
                {t('profile.email')}
              </label>
              <input id="profile-email" className="input bg-surface-2 text-muted" value={user.attributes.email} readOnly />
            </div>
          </div>
        </section>
        <section className="card p-6">
          <h2 className="mb-4 text-lg font-bold">{t('profile.appearance')}</h2>
          <div className="grid gap-5 sm:grid-cols-2">
            <SelectSetting
              field="theme_mode"
              label={t('profile.theme')}
              value={settings.theme_mode ?? 'system'}
              options={[
                ['system', t('profile.theme_system')],
                ['light', t('theme_light')],
                ['dark', t('theme_dark')],
              ]}
              onPicked={(mode) => applyTheme(mode as ThemeMode)}
            />
            <SelectSetting
              field="emoji_type"
              label={t('profile.emoji')}
              value={settings.emoji_type ?? 'twemoji'}
              options={[
                ['twemoji', 'Twemoji'],
                ['applemoji', 'Apple'],
              ]}
            />
            <LanguageChoice />
          </div>
        </section>
        <section className="card p-6">
          <h2 className="mb-4 text-lg font-bold">{t('live.notifications')}</h2>
          <div className="grid gap-5 sm:grid-cols-2">
            <SelectSetting
              field="notification_sound"
              label={t('live.sound')}
              hint={t('live.sound_hint')}
              value={settings.notification_sound === false ? 'off' : 'on'}
              options={[
                ['on', t('live.sound_on')],
                ['off', t('live.sound_off')],
              ]}
            />
          </div>
        </section>
      </div>
    </div>
  );
}

function AvatarCard() {
  const t = useT();
  const user = useStore($user)!;
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const onFile = async (file: File | undefined) => {
    if (!file) return;
    setBusy(true);
    try {
      await uploadAvatar(file);
      toast('success', t('profile.avatar_saved'));
    } catch (err) {
      const message = err instanceof ApiError ? (Object.values(err.errors)[0]?.[0] ?? err.message) : t('popup_error.message');
      showAlert({ title: t('popup_error.title'), message });
    } finally {
      setBusy(false);
      if (input.current) input.current.value = '';
    }
  };
  return (
    <section className="card flex flex-col gap-5 p-6 sm:flex-row sm:items-center">
      <div className="flex min-w-0 flex-1 items-center gap-4">
        <Avatar size={72} name={user.attributes.name} email={user.attributes.email} color={user.attributes.color} avatar={user.attributes.avatar} />
        <div className="min-w-0">
          <p className="truncate text-lg font-bold">{user.attributes.name}</p>
          <p className="text-sm text-muted">{t('profile.avatar_hint')}</p>
        </div>
      </div>
      <input ref={input} type="file" accept="image/png,image/jpeg,image/webp,image/gif" className="sr-only" id="avatar-input" onChange={(e) => void onFile(e.target.files?.[0])} />
      <label htmlFor="avatar-input" className={`btn-secondary cursor-pointer self-start sm:self-auto focus-within:ring-2 ${busy ? 'pointer-events-none opacity-60' : ''}`} tabIndex={0} onKeyDown={(e) => (e.key === 'Enter' || e.key === ' ') && input.current?.click()}>
        {busy ? <LoaderCircle className="size-4 animate-spin" aria-hidden /> : <Upload className="size-4" aria-hidden />}
        {t('profile.avatar_change')}
      </label>
    </section>
  );
}

function SaveHint({ field }: { field: string }) {
  const state = useStore($saveStates)[field];
  const t = useT();
  if (!state || state.status === 'idle') return null;
  if (state.status === 'saving') return <LoaderCircle className="size-3.5 animate-spin text-muted" aria-label={t('profile.saving')} />;
  if (state.status === 'saved')
    return (
      <span className="inline-flex items-center gap-1 text-xs font-medium text-success-text" role="status">
        <Check className="size-3.5" aria-hidden />
        {t('profile.saved')}
      </span>
    );
  return null;
}

function AutoSaveField({ field, label, initial, required, className = '' }: { field: string; label: string; initial: string; required?: boolean; className?: string }) {
  const id = useId();
  const [value, setValue] = useState(initial);
  const state = useStore($saveStates)[field];
  const error = state?.status === 'error' ? state.message : '';
  return (
    <div className={className}>
      <div className="flex items-center justify-between">
        <label className="label" htmlFor={id}>
          {label}
        </label>
        <SaveHint field={field} />
      </div>
      <input
        id={id}
        name={field}
        className="input"
        value={value}
        maxLength={field === 'name' ? 120 : 80}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(e) => {
          setValue(e.target.value);
          autoSave(field, e.target.value, { force: !required });
        }}
      />
      {error && (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}

function SelectSetting({ field, label, hint, value, options, onPicked }: { field: string; label: string; hint?: string; value: string; options: [string, string][]; onPicked?: (value: string) => void }) {
  const id = useId();
  return (
    <div>
      <div className="flex items-center justify-between">
        <label className="label" htmlFor={id}>
          {label}
        </label>
        <SaveHint field={field} />
      </div>
      <select
        id={id}
        aria-describedby={describedBy(id, hint, undefined)}
        className="input"
        defaultValue={value}
        onChange={(e) => {
          onPicked?.(e.target.value);
          void saveSettings({ [field]: e.target.value });
        }}
      >
        {options.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </select>
      <FieldNotes id={id} hint={hint} hintClassName="mt-1.5 text-xs text-muted" />
    </div>
  );
}
