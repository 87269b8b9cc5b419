import { useState } from 'react';
import { FormField } from '../../../components/FormField.tsx';
import { SelectField } from '../../../components/SelectField.tsx';
import { useT } from '../../../stores/i18n.ts';
import { toast } from '../../../stores/ui.ts';
import { saveGroup, uploadAppearanceImage, type AppearanceSettings } from './api.ts';
import { ImageSlot } from './ImageSlot.tsx';
import { Section, SettingsForm, TextAreaField } from './SettingsForm.tsx';
import { useSettingsGroup } from './useSettingsGroup.ts';

type Slot = 'logo_horizontal' | 'logo_horizontal_dark' | 'favicon';

/** The token sheet's brand colour, shown while none is chosen. */
const DEFAULT_BRAND = '#4f46e5';

/** WCAG contrast of white text on a #rrggbb colour (buttons draw white on the brand colour in light mode). */
function contrastWithWhite(hex: string): number {
  const channel = (i: number) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
  return 1.05 / (luminance + 0.05);
}

export default function AppearanceTab() {
  const t = useT();
  const form = useSettingsGroup<AppearanceSettings>('appearance');
  const [imageBusy, setImageBusy] = useState<Slot | null>(null);
  const [imageErrors, setImageErrors] = useState<Partial<Record<Slot, string>>>({});
  const v = form.values;
  const meta = form.saved?.meta;

  const changeImage = async (slot: Slot, file: File | null) => {
    setImageBusy(slot);
    setImageErrors((e) => ({ ...e, [slot]: undefined }));
    try {
      form.accept(file ? await uploadAppearanceImage(slot, file) : await saveGroup<AppearanceSettings>('appearance', { [slot]: '' }));
      toast('success', file ? t('admin_settings.image_uploaded') : t('admin_settings.image_removed'));
    } catch (error) {
      setImageErrors((e) => ({ ...e, [slot]: error instanceof Error ? error.message : String(error) }));
    } finally {
      setImageBusy(null);
    }
  };

  const color = v?.brand_color ?? '';
  const validColor = /^#[0-9a-f]{6}$/i.test(color);
  const lowContrast = validColor && contrastWithWhite(color) < 4.5;
  const maxMb = meta ? meta.image_max_bytes / 1024 / 1024 : 1;

  return (
    <SettingsForm label={t('admin_settings.tab_appearance')} loaded={!!v} message={form.message} busy={form.busy} dirty={form.dirty} onSave={() => void form.save()}>
      {v && meta && (
        <>
          <Section title={t('admin_settings.identity')} description={t('admin_settings.identity_text')}>
            <FormField label={t('admin_settings.app_name')} value={v.app_name} onChange={(e) => form.set('app_name', e.target.value)} error={form.error('app_name')} maxLength={60} required />
            <TextAreaField label={t('admin_settings.app_description')} hint={t('admin_settings.app_description_hint')} value={v.app_description} onChange={(e) => form.set('app_description', e.target.value)} error={form.error('app_description')} maxLength={300} rows={3} />
          </Section>

          <Section title={t('admin_settings.logos')} description={t('admin_settings.logos_text', { size: maxMb })}>
            <ImageSlot name="logo_horizontal" label={t('admin_settings.logo_light')} hint={t('admin_settings.logo_light_hint')} url={v.logo_horizontal} preview="light" fallback={t('admin_settings.builtin_logo')} busy={imageBusy !== null} error={imageErrors.logo_horizontal ?? form.error('logo_horizontal')} onPick={(f) => void changeImage('logo_horizontal', f)} onRemove={() => void changeImage('logo_horizontal', null)} />
            <ImageSlot name="logo_horizontal_dark" label={t('admin_settings.logo_dark')} hint={t('admin_settings.logo_dark_hint')} url={v.logo_horizontal_dark} preview="dark" fallback={t('admin_settings.same_as_light')} busy={imageBusy !== null} error={imageErrors.logo_horizontal_dark ?? form.error('logo_horizontal_dark')} onPick={(f) => void changeImage('logo_horizontal_dark', f)} onRemove={() => void changeImage('logo_horizontal_dark', null)} />
            <ImageSlot name="favicon" label={t('admin_settings.favicon')} hint={t('admin_settings.favicon_hint', { px: meta.favicon_px })} url={v.favicon} preview="icon" fallback={t('admin_settings.builtin_icon')} busy={imageBusy !== null} error={imageErrors.favicon ?? form.error('favicon')} onPick={(f) => void changeImage('favicon', f)} onRemove={() => void changeImage('favicon', null)} />
          </Section>

          <Section title={t('admin_settings.look')} description={t('admin_settings.look_text')}>
            <div className="mb-4">
              <label className="label" htmlFor="brand-color-text">
                {t('admin_settings.brand_color')}
              </label>
              <div className="flex flex-wrap items-center gap-2">
                <input type="color" aria-label={t('admin_settings.brand_color_pick')} className="h-11 w-14 cursor-pointer rounded-control border border-border bg-surface p-1" value={validColor ? color.toLowerCase() : DEFAULT_BRAND} onChange={(e) => form.set('brand_color', e.target.value)} />
                <input
                  id="brand-color-text"
                  className="input max-w-36 font-mono"
                  value={color}
                  placeholder={DEFAULT_BRAND}
                  maxLength={7}
                  spellCheck={false}
                  onChange={(e) => form.set('brand_color', e.target.value.trim())}
                  aria-invalid={form.error('brand_color') ? true : undefined}
                  aria-describedby="brand-color-hint"
                />
                {color && (
                  <button type="button" className="btn-secondary px-3 py-2 text-sm" onClick={() => form.set('brand_color', '')}>
                    {t('admin_settings.brand_color_reset')}
                  </button>
                )}
              </div>
              <p id="brand-color-hint" className={`mt-1.5 text-sm ${lowContrast ? 'text-danger-text' : 'text-muted'}`}>
                {lowContrast ? t('admin_settings.brand_color_contrast', { ratio: contrastWithWhite(color).toFixed(1) }) : t('admin_settings.brand_color_hint')}
              </p>
              {form.error('brand_color') && <p className="field-error">{form.error('brand_color')}</p>}
            </div>
            <div className="grid gap-x-5 sm:grid-cols-2">
              <SelectField
                label={t('admin_settings.default_theme')}
                hint={t('admin_settings.default_theme_hint')}
                value={v.default_theme_mode}
                onChange={(value) => form.set('default_theme_mode', value as typeof v.default_theme_mode)}
                options={meta.theme_modes.map((mode) => ({ value: mode, label: t(`admin_settings.theme_${mode}`) }))}
                error={form.error('default_theme_mode')}
              />
              <SelectField
                label={t('admin_settings.default_emoji')}
                hint={t('admin_settings.default_emoji_hint')}
                value={v.default_emoji}
                onChange={(value) => form.set('default_emoji', value as typeof v.default_emoji)}
                options={meta.emoji_sets.map((set) => ({ value: set, label: t(`admin_settings.emoji_${set}`) }))}
                error={form.error('default_emoji')}
              />
            </div>
          </Section>
        </>
      )}
    </SettingsForm>
  );
}
