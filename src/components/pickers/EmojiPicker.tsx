import { useVirtualizer } from '@tanstack/react-virtual';
import { Ban, Clock, Flag, Hand, Heart, Lightbulb, PawPrint, Pizza, Plane, Smile, SmilePlus, Volleyball, type LucideIcon } from 'lucide-react';
import { Popover } from 'radix-ui';
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { emojiChar } from '../../stores/files.ts';
import { useT } from '../../stores/i18n.ts';
import { Emoji, useEmojiSet } from './Emoji.tsx';
import type { EmojiGroup } from './emojiData.ts';
import { gridMove, layoutGrid, loadEmoji, readRecent, rememberRecent, searchEmoji, type EmojiCatalogue, type EmojiEntry, type EmojiSection, type PickedEmoji } from './emojiList.ts';
import { drawnByTwemoji } from './twemojiGlyphs.ts';

export type { PickedEmoji };

const COLUMNS = 8;
const HEADING_HEIGHT = 28;
const ROW_HEIGHT = 38;
const RECENT = 'recent';

const GROUP_ICONS: Record<EmojiGroup | typeof RECENT, LucideIcon> = {
  recent: Clock,
  'smileys-emotion': Smile,
  'people-body': Hand,
  'animals-nature': PawPrint,
  'food-drink': Pizza,
  'travel-places': Plane,
  activities: Volleyball,
  objects: Lightbulb,
  symbols: Heart,
  flags: Flag,
};

const capitalise = (text: string) => text.charAt(0).toLocaleUpperCase() + text.slice(1);

/**
 * A button that opens a popover of every emoji the user's set can draw (emojibase-data, loaded as
 * its own chunk on first open): "Recently used" first, then the Unicode groups with a jump bar,
 * search by name and keyword in the page language, arrow keys across the virtualised grid, Enter
 * or a click picks, "No emoji" clears.
 */
export function EmojiPicker({ value, onChange, label }: { value: unknown; onChange: (emoji: PickedEmoji | null) => void; label?: string }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const current = emojiChar(value);

  return (
    <Popover.Root open={open} onOpenChange={setOpen}>
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
        {/* A column whose grid gives way (down to two rows) when the window is too short for all of it. */}
        <Popover.Content align="start" sideOffset={8} collisionPadding={12} className="card z-[60] flex max-h-[var(--radix-popover-content-available-height)] w-[328px] max-w-[calc(100vw-1.5rem)] flex-col p-3 shadow-xl" aria-label={t('pickers.choose_emoji')}>
          <PickerBody
            current={current}
            onPick={(emoji) => {
              if (emoji) rememberRecent(emoji.char);
              onChange(emoji && { char: emoji.char, name: emoji.name });
              setOpen(false);
            }}
          />
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}

/** The popover's inside, mounted only while open: it loads the data and keeps search and focus state. */
function PickerBody({ current, onPick }: { current: string | null; onPick: (emoji: EmojiEntry | null) => void }) {
  const t = useT();
  const set = useEmojiSet();
  const searchId = useId();
  const [data, setData] = useState<EmojiCatalogue | null>(null);
  const [failed, setFailed] = useState(false);
  const [recent] = useState(readRecent);
  const [query, setQuery] = useState('');
  const [focus, setFocus] = useState(0);
  const scroller = useRef<HTMLDivElement>(null);
  const cells = useRef(new Map<number, HTMLButtonElement>());
  const pendingFocus = useRef<number | null>(null);
  const pendingJump = useRef<string | null>(null);

  useEffect(() => {
    let live = true;
    loadEmoji(document.documentElement.lang)
      .then((loaded) => (set === 'twemoji' ? drawnByTwemoji(loaded) : loaded))
      .then(
        (loaded) => live && setData(loaded),
        () => live && setFailed(true),
      );
    return () => void (live = false);
  }, [set]);

  const recentLabel = t('pickers.recent');
  const browse = useMemo((): (EmojiSection & { key: EmojiGroup | typeof RECENT; label: string })[] => {
    if (!data) return [];
    const recentItems = recent.map((c) => data.byChar.get(c)).filter((e): e is EmojiEntry => e !== undefined);
    const groups = data.groups.map((g) => ({ key: g.key, label: capitalise(g.name), items: data.emoji.filter((e) => e.group === g.key) }));
    return [{ key: RECENT, label: recentLabel, items: recentItems }, ...groups];
  }, [data, recent, recentLabel]);
  const layout = useMemo(() => {
    const sections: EmojiSection[] = data && query.trim() ? [{ key: 'results', label: null, items: searchEmoji(data.emoji, query) }] : browse;
    return layoutGrid(sections, COLUMNS);
  }, [data, query, browse]);

  const virtualizer = useVirtualizer({
    count: layout.rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: (i) => (layout.rows[i]?.kind === 'heading' ? HEADING_HEIGHT : ROW_HEIGHT),
    overscan: 4,
  });

  // A cell moved to by keyboard, or a group jumped to, may be rendered only after the scroll.
  useEffect(() => {
    if (pendingJump.current !== null) {
      const row = layout.sectionRow.get(pendingJump.current);
      pendingJump.current = null;
      if (row !== undefined) virtualizer.scrollToIndex(row, { align: 'start' });
    }
    if (pendingFocus.current !== null) {
      const cell = cells.current.get(pendingFocus.current);
      if (cell) {
        pendingFocus.current = null;
        cell.focus();
      }
    }
  });

  const moveFocus = (next: number) => {
    setFocus(next);
    pendingFocus.current = next;
    virtualizer.scrollToIndex(layout.rowOf[next]!, { align: 'auto' });
    const cell = cells.current.get(next);
    if (cell) {
      pendingFocus.current = null;
      cell.focus();
    }
  };
  const onGridKey = (event: KeyboardEvent, index: number) => {
    const next = gridMove(event.key, index, layout);
    if (next === null) return;
    event.preventDefault();
    moveFocus(next);
  };
  const jumpTo = (section: string) => {
    pendingJump.current = section;
    const row = layout.sectionRow.get(section);
    if (query) setQuery('');
    else if (row !== undefined) {
      pendingJump.current = null;
      virtualizer.scrollToIndex(row, { align: 'start' });
    }
  };

  const items = virtualizer.getVirtualItems();
  const offset = virtualizer.scrollOffset ?? 0;
  const topRow = items.find((v) => v.end > offset + 1);
  const activeSection = query ? null : topRow ? layout.rows[topRow.index]?.section : null;
  // The grid's one tab stop: the last focused cell while it is rendered, else the first cell in view
  // (after scrolling or a jump, Tab lands where the person is looking, not on an unrendered cell).
  const focusRow = layout.rowOf[focus];
  const firstInView = items.map((v) => layout.rows[v.index]!).find((r, i) => r.kind === 'cells' && items[i]!.end > offset + 1);
  const tabStop = focusRow !== undefined && items.some((v) => v.index === focusRow) ? focus : firstInView?.kind === 'cells' ? firstInView.start : 0;
  const jumps = browse.filter((s) => s.items.length > 0);

  return (
    <>
      <label htmlFor={searchId} className="sr-only">
        {t('pickers.search_emoji')}
      </label>
      <input
        id={searchId}
        type="search"
        className="input shrink-0 py-2 text-sm"
        placeholder={t('pickers.search_emoji')}
        value={query}
        maxLength={64}
        autoComplete="off"
        onChange={(e) => {
          setQuery(e.target.value);
          setFocus(0);
          virtualizer.scrollToOffset(0);
        }}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' && layout.cells.length > 0) {
            e.preventDefault();
            moveFocus(0);
          } else if (e.key === 'Enter' && query.trim() && layout.cells.length > 0) {
            e.preventDefault();
            onPick(layout.cells[0]!);
          }
        }}
      />
      {jumps.length > 0 && (
        <div role="toolbar" aria-label={t('pickers.emoji_groups')} className="mt-2 flex shrink-0 justify-between">
          {jumps.map((j) => {
            const Icon = GROUP_ICONS[j.key];
            const active = activeSection === j.key;
            return (
              <button
                key={j.key}
                type="button"
                aria-label={j.label}
                title={j.label}
                aria-current={active || undefined}
                onClick={() => jumpTo(j.key)}
                className={`flex size-7 items-center justify-center rounded-md transition-colors hover:bg-surface-2 hover:text-text ${active ? 'bg-brand-soft text-brand' : 'text-muted'}`}
              >
                <Icon className="size-4" aria-hidden />
              </button>
            );
          })}
        </div>
      )}
      <div ref={scroller} className="mt-2 h-[264px] min-h-[76px] overflow-y-auto overscroll-contain" role="group" aria-label={t('pickers.emoji')} aria-busy={!data && !failed}>
        {failed ? (
          <p className="py-6 text-center text-sm text-muted">{t('pickers.emoji_load_failed')}</p>
        ) : !data ? (
          <p className="flex items-center justify-center gap-2 py-6 text-sm text-muted">
            <span className="size-4 animate-spin rounded-full border-2 border-border border-t-brand" aria-hidden />
            {t('pickers.loading_emoji')}
          </p>
        ) : layout.cells.length === 0 ? (
          <p className="py-6 text-center text-sm text-muted">{t('pickers.no_emoji_found')}</p>
        ) : (
          <div className="relative w-full" style={{ height: virtualizer.getTotalSize() }}>
            {items.map((v) => {
              const row = layout.rows[v.index]!;
              return (
                <div key={v.key} className="absolute inset-x-0 top-0" style={{ height: v.size, transform: `translateY(${v.start}px)` }}>
                  {row.kind === 'heading' ? (
                    <p className="flex h-full items-end px-1 pb-1 text-xs font-medium text-muted">{row.label}</p>
                  ) : (
                    <div className="grid h-full grid-cols-8 gap-0.5">
                      {layout.cells.slice(row.start, row.start + row.count).map((emoji, j) => {
                        const i = row.start + j;
                        return (
                          <button
                            key={i}
                            ref={(el) => {
                              if (el) cells.current.set(i, el);
                              else cells.current.delete(i);
                            }}
                            type="button"
                            tabIndex={i === tabStop ? 0 : -1}
                            aria-label={emoji.name}
                            aria-pressed={current === emoji.char}
                            title={emoji.name}
                            onKeyDown={(e) => onGridKey(e, i)}
                            onFocus={() => setFocus(i)}
                            onClick={() => onPick(emoji)}
                            className={`flex items-center justify-center rounded-lg text-[22px] transition-colors hover:bg-surface-2 focus-visible:bg-surface-2 ${current === emoji.char ? 'bg-brand-soft ring-1 ring-brand' : ''}`}
                          >
                            <span className={`emoji-${set} inline-block leading-none`} aria-hidden>
                              {emoji.char}
                            </span>
                          </button>
                        );
                      })}
                    </div>
                  )}
                </div>
              );
            })}
          </div>
        )}
      </div>
      <button
        type="button"
        onClick={() => onPick(null)}
        aria-pressed={current === null}
        className="mt-3 flex w-full shrink-0 items-center justify-center gap-2 rounded-control border border-border px-3 py-2 text-sm font-medium text-muted transition-colors hover:bg-surface-2 hover:text-text"
      >
        <Ban className="size-4" aria-hidden />
        {t('pickers.no_emoji')}
      </button>
    </>
  );
}
