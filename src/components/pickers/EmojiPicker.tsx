import { Ban, SmilePlus } from 'lucide-react';
import { Popover } from 'radix-ui';
import { useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { emojiChar } from '../../stores/files.ts';
import { useT } from '../../stores/i18n.ts';
import { Emoji } from './Emoji.tsx';
import { filterEmoji, FOLDER_EMOJI, gridMove, type PickedEmoji } from './emojiList.ts';

export type { PickedEmoji };

const COLUMNS = 8;

/**
 * A button that opens a popover of common folder emoji: search by name, arrow keys across the
 * grid, Enter or a click picks, "No emoji" clears. Drawn in the user's emoji set.
 */
export function EmojiPicker({ value, onChange, label }: { value: unknown; onChange: (emoji: PickedEmoji | null) => void; label?: string }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const [focus, setFocus] = useState(0);
  const cells = useRef<(HTMLButtonElement | null)[]>([]);
  const searchId = useId();
  const shown = useMemo(() => filterEmoji(FOLDER_EMOJI, query), [query]);
  const current = emojiChar(value);
  const tabStop = Math.min(focus, Math.max(0, shown.length - 1));

  const setOpenState = (next: boolean) => {
    setOpen(next);
    if (!next) {
      setQuery('');
      setFocus(0);
    }
  };
  const pick = (emoji: PickedEmoji | null) => {
    onChange(emoji);
    setOpenState(false);
  };
  const moveFocus = (next: number) => {
    setFocus(next);
    cells.current[next]?.focus();
  };
  const onGridKey = (event: KeyboardEvent, index: number) => {
    const next = gridMove(event.key, index, shown.length, COLUMNS);
    if (next === null) return;
    event.preventDefault();
    moveFocus(next);
  };

  return (
    <Popover.Root open={open} onOpenChange={setOpenState}>
      <Popover.Trigger asChild>
        <button
          type="button"
          className="flex size-11 shrink-0 items-center justify-center rounded-control border border-border bg-surface text-2xl transition-colors hover:bg-surface-2"
          aria-label={label ?? t('pickers.choose_emoji')}
        >
          {current ? <Emoji value={value} /> : <SmilePlus className="size-5 text-muted" aria-hidden />}
        </button>
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content align="start" sideOffset={8} collisionPadding={12} className="card z-[60] w-[328px] max-w-[calc(100vw-1.5rem)] p-3 shadow-xl" aria-label={t('pickers.choose_emoji')}>
          <label htmlFor={searchId} className="sr-only">
            {t('pickers.search_emoji')}
          </label>
          <input
            id={searchId}
            type="search"
            className="input py-2 text-sm"
            placeholder={t('pickers.search_emoji')}
            value={query}
            maxLength={64}
            autoComplete="off"
            onChange={(e) => {
              setQuery(e.target.value);
              setFocus(0);
            }}
            onKeyDown={(e) => {
              if (e.key === 'ArrowDown' && shown.length > 0) {
                e.preventDefault();
                moveFocus(0);
              } else if (e.key === 'Enter' && shown.length > 0) {
                e.preventDefault();
                pick(shown[0]!);
              }
            }}
          />
          {shown.length === 0 ? (
            <p className="py-6 text-center text-sm text-muted">{t('pickers.no_emoji_found')}</p>
          ) : (
            <div role="group" aria-label={t('pickers.emoji')} className="mt-3 grid grid-cols-8 gap-0.5">
              {shown.map((emoji, i) => (
                <button
                  key={emoji.char}
                  ref={(el) => {
                    cells.current[i] = el;
                  }}
                  type="button"
                  tabIndex={i === tabStop ? 0 : -1}
                  aria-label={emoji.name}
                  aria-pressed={current === emoji.char}
                  title={emoji.name}
                  onKeyDown={(e) => onGridKey(e, i)}
                  onFocus={() => setFocus(i)}
                  onClick={() => pick(emoji)}
                  className={`flex aspect-square items-center justify-center rounded-lg text-[22px] transition-colors hover:bg-surface-2 focus-visible:bg-surface-2 ${
                    current === emoji.char ? 'bg-brand-soft ring-1 ring-brand' : ''
                  }`}
                >
                  <Emoji value={emoji.char} />
                </button>
              ))}
            </div>
          )}
          <button
            type="button"
            onClick={() => pick(null)}
            aria-pressed={current === null}
            className="mt-3 flex w-full items-center justify-center gap-2 rounded-control border border-border px-3 py-2 text-sm font-medium text-muted transition-colors hover:bg-surface-2 hover:text-text"
          >
            <Ban className="size-4" aria-hidden />
            {t('pickers.no_emoji')}
          </button>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
