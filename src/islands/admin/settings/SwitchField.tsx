import { useId } from 'react';

/** An on/off setting: a checkbox shown as a switch, labelled, with an optional line of explanation. */
export function SwitchField({ label, hint, checked, onChange }: { label: string; hint?: string; checked: boolean; onChange: (on: boolean) => void }) {
  const hintId = useId();
  return (
    <label className="flex cursor-pointer items-center justify-between gap-4 py-1">
      <span className="min-w-0">
        <span className="block font-semibold">{label}</span>
        {hint && (
          <span id={hintId} className="mt-0.5 block text-sm text-muted">
            {hint}
          </span>
        )}
      </span>
      <span className="relative inline-flex shrink-0">
        {/* The checkbox itself is the track (so it takes clicks and the focus ring); the knob is drawn over it. */}
        <input
          type="checkbox"
          role="switch"
          className="peer h-6 w-11 cursor-pointer appearance-none rounded-full bg-border transition-colors checked:bg-brand"
          checked={checked}
          onChange={(e) => onChange(e.target.checked)}
          aria-describedby={hint ? hintId : undefined}
        />
        <span aria-hidden className="pointer-events-none absolute top-0.5 left-0.5 size-5 rounded-full bg-white shadow transition-transform peer-checked:translate-x-5" />
      </span>
    </label>
  );
}
