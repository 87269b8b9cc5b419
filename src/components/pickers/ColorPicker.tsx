import { Check } from 'lucide-react';
import { RadioGroup } from 'radix-ui';
import { useT } from '../../stores/i18n.ts';

/** Folder colours: the brand default (no colour stored) and these. Mid-tones that read on light and dark. */
export const SWATCHES = [
  { key: 'red', hex: '#ef4444' },
  { key: 'orange', hex: '#f97316' },
  { key: 'amber', hex: '#f59e0b' },
  { key: 'green', hex: '#22c55e' },
  { key: 'teal', hex: '#14b8a6' },
  { key: 'sky', hex: '#0ea5e9' },
  { key: 'blue', hex: '#3b82f6' },
  { key: 'violet', hex: '#8b5cf6' },
  { key: 'pink', hex: '#ec4899' },
  { key: 'slate', hex: '#64748b' },
] as const;

const DEFAULT = 'default';

const swatchClass =
  'flex size-7 items-center justify-center rounded-full text-white shadow-sm outline-none transition-transform hover:scale-110 focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-surface data-[state=checked]:ring-2 data-[state=checked]:ring-text data-[state=checked]:ring-offset-2 data-[state=checked]:ring-offset-surface';

/**
 * A radio group of colour swatches (arrow keys move and pick, Tab leaves). `null` is the brand
 * default; a stored colour that is not a swatch shows as one more swatch so it stays visible.
 */
export function ColorPicker({ value, onChange, label }: { value: string | null; onChange: (hex: string | null) => void; label?: string }) {
  const t = useT();
  const current = value ? value.toLowerCase() : DEFAULT;
  const custom = current !== DEFAULT && !SWATCHES.some((s) => s.hex === current);
  return (
    <RadioGroup.Root
      value={current}
      onValueChange={(next) => onChange(next === DEFAULT ? null : next)}
      aria-label={label ?? t('pickers.color')}
      orientation="horizontal"
      loop
      className="flex flex-wrap gap-2"
    >
      <RadioGroup.Item value={DEFAULT} aria-label={t('pickers.default_color')} title={t('pickers.default_color')} className={`${swatchClass} bg-brand text-on-brand`}>
        <RadioGroup.Indicator>
          <Check className="size-4" strokeWidth={3} aria-hidden />
        </RadioGroup.Indicator>
      </RadioGroup.Item>
      {[...SWATCHES.map((s) => ({ hex: s.hex as string, name: t(`pickers.colors.${s.key}`) })), ...(custom ? [{ hex: current, name: current }] : [])].map((s) => (
        <RadioGroup.Item key={s.hex} value={s.hex} aria-label={s.name} title={s.name} className={swatchClass} style={{ backgroundColor: s.hex }}>
          <RadioGroup.Indicator>
            <Check className="size-4" strokeWidth={3} aria-hidden />
          </RadioGroup.Indicator>
        </RadioGroup.Item>
      ))}
    </RadioGroup.Root>
  );
}
