import { useStore } from '@nanostores/react';
import { ArrowDown, ArrowUp, CornerDownLeft, File, FileImage, FileMusic, FileText, FileVideoCamera, Folder, Search, SearchX, TriangleAlert, X } from 'lucide-react';
import { Dialog } from 'radix-ui';
import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { categoryOf } from '../../server/files/categories.ts';
import { formatSize, loadTree, searchItems, type Item } from '../../stores/files.ts';
import { $tree } from '../../stores/tree.ts';
import { useT } from '../../stores/i18n.ts';
import { $router, openPage } from '../../stores/router.ts';
import {
  $spotlightOpen,
  closeSpotlight,
  isSpotlightShortcut,
  locationOf,
  moveHighlight,
  openSpotlight,
  SEARCH_DEBOUNCE_MS,
  splitMatch,
  spotlightTarget,
  $revealItem,
} from '../../stores/spotlight.ts';
import { Emoji } from '../pickers/Emoji.tsx';

export { openSpotlight };

/**
 * The search spotlight (SPEC §2): Ctrl/Cmd+K anywhere in the signed-in app, a dimmed backdrop
 * that closes it on click, Escape closes it. Searches as you type; arrows and Enter open a result.
 */
export function Spotlight() {
  const open = useStore($spotlightOpen);
  const t = useT();
  useEffect(() => {
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (!isSpotlightShortcut(event)) return;
      event.preventDefault();
      openSpotlight();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  return (
    <Dialog.Root open={open} onOpenChange={(next) => $spotlightOpen.set(next)}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-backdrop" data-testid="spotlight-backdrop" />
        <Dialog.Content
          aria-describedby={undefined}
          className="card fixed top-3 left-1/2 z-50 flex max-h-[calc(100dvh-1.5rem)] w-[calc(100vw-1.5rem)] -translate-x-1/2 flex-col overflow-hidden shadow-2xl sm:top-[12vh] sm:max-h-[min(560px,76vh)] sm:w-[640px]"
        >
          <Dialog.Title className="sr-only">{t('spotlight.title')}</Dialog.Title>
          <SpotlightSearch />
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

type Answer = { status: 'idle' | 'loading' | 'ready' | 'error'; query: string; items: Item[]; locations?: Record<string, { name: string }[]> };

function SpotlightSearch() {
  const t = useT();
  const tree = useStore($tree);
  const [query, setQuery] = useState('');
  const [answer, setAnswer] = useState<Answer>({ status: 'idle', query: '', items: [] });
  const [active, setActive] = useState(-1);
  const listId = useId();
  const list = useRef<HTMLUListElement>(null);
  const optionId = (i: number) => `${listId}-option-${i}`;

  // Each result's location comes with the answer; the folder tree (cached for the session) is the fallback.
  useEffect(() => {
    if ($tree.get() === null) void loadTree();
  }, []);

  // Search as you type: wait for a pause, then ask; an answer to an older query is dropped.
  useEffect(() => {
    const q = query.trim();
    if (!q) {
      setAnswer({ status: 'idle', query: '', items: [] });
      setActive(-1);
      return;
    }
    let stale = false;
    setAnswer((prev) => ({ ...prev, status: 'loading' }));
    const timer = setTimeout(() => {
      searchItems(q).then(
        ({ items, locations }) => {
          if (stale) return;
          setAnswer({ status: 'ready', query: q, items, locations });
          setActive(items.length > 0 ? 0 : -1);
        },
        () => {
          if (!stale) setAnswer({ status: 'error', query: q, items: [] });
        },
      );
    }, SEARCH_DEBOUNCE_MS);
    return () => {
      stale = true;
      clearTimeout(timer);
    };
  }, [query]);

  useEffect(() => {
    if (active >= 0) list.current?.querySelector(`[data-index="${active}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [active]);

  const items = answer.items;
  const openItem = (item: Item) => {
    const id = spotlightTarget(item);
    $revealItem.set(item.type === 'file' ? item.id : null);
    closeSpotlight();
    if (id) openPage($router, 'files', { id });
    else openPage($router, 'files', {});
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setActive((i) => moveHighlight(i, event.key === 'ArrowDown' ? 1 : -1, items.length));
    } else if (event.key === 'Enter' && !event.nativeEvent.isComposing) {
      event.preventDefault();
      const item = items[active];
      if (item) openItem(item);
    }
  };

  const loading = answer.status === 'loading';
  const hasQuery = query.trim() !== '';
  const showList = items.length > 0 && hasQuery;

  return (
    <>
      <div className="flex items-center gap-3 border-b border-border px-4 sm:px-5">
        <Search className="size-5 shrink-0 text-muted" aria-hidden />
        <input
          type="text"
          role="combobox"
          aria-label={t('spotlight.label')}
          aria-expanded={showList}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={showList && active >= 0 ? optionId(active) : undefined}
          autoComplete="off"
          autoCorrect="off"
          spellCheck={false}
          enterKeyHint="go"
          maxLength={255}
          placeholder={t('spotlight.placeholder')}
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          onKeyDown={onKeyDown}
          className="h-14 min-w-0 flex-1 bg-transparent text-[17px] text-text outline-none placeholder:text-muted"
        />
        {loading && <span className="size-4 shrink-0 animate-spin rounded-full border-2 border-border border-t-brand" aria-hidden />}
        <Dialog.Close asChild>
          <button type="button" className="-mr-1.5 shrink-0 rounded-md p-1.5 text-muted hover:bg-surface-2 hover:text-text sm:mr-0 sm:border sm:border-border sm:px-1.5 sm:py-0.5 sm:text-xs sm:font-medium" aria-label={t('spotlight.close')} aria-keyshortcuts="Escape">
            <X className="size-5 sm:hidden" aria-hidden />
            <span className="hidden sm:inline">Esc</span>
          </button>
        </Dialog.Close>
      </div>

      <p className="sr-only" aria-live="polite">
        {loading ? t('spotlight.searching') : answer.status === 'ready' ? (items.length === 1 ? t('spotlight.count_one') : t('spotlight.count_other', { count: items.length })) : ''}
      </p>

      <div className="min-h-0 flex-1 overflow-y-auto overscroll-contain">
        {!hasQuery && <Notice icon={<Search className="size-6" aria-hidden />} title={t('spotlight.hint_title')} text={t('spotlight.hint_text')} />}
        {hasQuery && answer.status === 'error' && <Notice icon={<TriangleAlert className="size-6" aria-hidden />} title={t('spotlight.error')} tone="danger" />}
        {hasQuery && answer.status === 'ready' && items.length === 0 && (
          <Notice icon={<SearchX className="size-6" aria-hidden />} title={t('spotlight.empty_title')} text={t('spotlight.empty_text', { query: answer.query })} />
        )}
        {hasQuery && answer.status === 'loading' && items.length === 0 && <p className="px-5 py-10 text-center text-sm text-muted">{t('spotlight.searching')}</p>}
        <ul id={listId} ref={list} role="listbox" aria-label={t('spotlight.results')} className={showList ? 'p-2' : 'hidden'}>
          {showList &&
            items.map((item, i) => (
              <ResultRow key={item.id} id={optionId(i)} index={i} item={item} query={answer.query} active={i === active} location={answer.locations?.[item.id]?.map((n) => n.name) ?? locationOf(tree, item.attributes.parent_id)} onHover={() => setActive(i)} onOpen={() => openItem(item)} />
            ))}
        </ul>
      </div>

      <div className="hidden items-center gap-4 border-t border-border bg-surface-2/60 px-5 py-2.5 text-xs text-muted sm:flex">
        <KeyHint keys={[<ArrowUp key="u" className="size-3" aria-hidden />, <ArrowDown key="d" className="size-3" aria-hidden />]} label={t('spotlight.keys_move')} />
        <KeyHint keys={[<CornerDownLeft key="e" className="size-3" aria-hidden />]} label={t('spotlight.keys_open')} />
        <KeyHint keys={['Esc']} label={t('spotlight.keys_close')} />
      </div>
    </>
  );
}

function ResultRow({ id, index, item, query, active, location, onHover, onOpen }: { id: string; index: number; item: Item; query: string; active: boolean; location: string[] | null; onHover: () => void; onOpen: () => void }) {
  const t = useT();
  const { name } = item.attributes;
  const parts = splitMatch(name, query);
  return (
    <li
      id={id}
      role="option"
      aria-selected={active}
      data-index={index}
      onMouseMove={active ? undefined : onHover}
      onClick={onOpen}
      className={`flex cursor-pointer items-center gap-3 rounded-control px-3 py-2.5 ${active ? 'bg-brand-soft' : ''}`}
    >
      <ItemIcon item={item} />
      <div className="min-w-0 flex-1">
        <p className="truncate text-[15px] font-medium">
          <bdi>
            {parts ? (
              <>
                {parts.before}
                <mark className="rounded-sm bg-transparent font-bold text-brand">{parts.match}</mark>
                {parts.after}
              </>
            ) : (
              name
            )}
          </bdi>
        </p>
        {location && (
          <p className="truncate text-xs text-muted">
            {[t('locations.home'), ...location].map((part, i) => (
              <span key={i}>
                {i > 0 && <span aria-hidden> / </span>}
                <bdi>{part}</bdi>
              </span>
            ))}
          </p>
        )}
      </div>
      <span className="shrink-0 text-xs text-muted">{item.type === 'folder' ? t('spotlight.folder') : formatSize(item.attributes.size)}</span>
      {active && <CornerDownLeft className="hidden size-4 shrink-0 text-brand sm:block" aria-hidden />}
    </li>
  );
}

const FILE_ICONS = { images: FileImage, videos: FileVideoCamera, audios: FileMusic, documents: FileText, others: File } as const;

function ItemIcon({ item }: { item: Item }) {
  const { emoji, color, mimetype } = item.attributes;
  const box = 'flex size-9 shrink-0 items-center justify-center rounded-lg';
  if (item.type === 'folder') {
    if (emoji) return <span className={`${box} bg-surface-2 text-xl`}><Emoji value={emoji} /></span>;
    return (
      <span className={`${box} bg-brand-soft text-brand`} style={color ? { color, backgroundColor: `color-mix(in srgb, ${color} 14%, transparent)` } : undefined}>
        <Folder className="size-5" fill="currentColor" fillOpacity={0.18} aria-hidden />
      </span>
    );
  }
  const Icon = FILE_ICONS[categoryOf(mimetype)];
  return (
    <span className={`${box} bg-surface-2 text-muted`}>
      <Icon className="size-5" aria-hidden />
    </span>
  );
}

function Notice({ icon, title, text, tone }: { icon: ReactNode; title: string; text?: string; tone?: 'danger' }) {
  return (
    <div className="flex flex-col items-center px-6 py-10 text-center">
      <span className={`mb-3 flex size-12 items-center justify-center rounded-full ${tone === 'danger' ? 'bg-danger/10 text-danger' : 'bg-surface-2 text-muted'}`}>{icon}</span>
      <p className="font-semibold">{title}</p>
      {text && <p className="mt-1 max-w-sm text-sm break-words text-muted">{text}</p>}
    </div>
  );
}

function KeyHint({ keys, label }: { keys: ReactNode[]; label: string }) {
  return (
    <span className="flex items-center gap-1.5">
      {keys.map((k, i) => (
        <kbd key={i} className="flex h-5 min-w-5 items-center justify-center rounded border border-border bg-surface px-1 font-sans text-[11px] font-medium">
          {k}
        </kbd>
      ))}
      <span>{label}</span>
    </span>
  );
}
