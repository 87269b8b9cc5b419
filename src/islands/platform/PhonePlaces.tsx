import { useEffect, useRef, useState } from 'react';
import { useT } from '../../stores/i18n.ts';
import { StorageMeter } from './StorageMeter.tsx';

export type Place = 'home' | 'recent' | 'team' | 'sharedWithMe' | 'shared' | 'trash';

/** Below the large breakpoint the navigation panel is gone: the file area's places become tabs, with the storage meter under them. */
export function PhonePlaces({ active }: { active: Place }) {
  const t = useT();
  const bar = useRef<HTMLElement>(null);
  // The tabs scroll sideways on a narrow screen: the open place is brought into view.
  useEffect(() => {
    const current = bar.current?.querySelector<HTMLElement>('[aria-current="page"]');
    if (current && bar.current) bar.current.scrollLeft = current.offsetLeft - bar.current.offsetLeft - 4;
  }, [active]);
  // Tabs cut off at an edge fade out there: the cue that the strip scrolls that way.
  const [more, setMore] = useState({ before: false, after: false });
  useEffect(() => {
    const el = bar.current;
    if (!el) return;
    const measure = () => {
      const before = el.scrollLeft > 1;
      const after = el.scrollLeft + el.clientWidth < el.scrollWidth - 1;
      setMore((m) => (m.before === before && m.after === after ? m : { before, after }));
    };
    measure();
    el.addEventListener('scroll', measure, { passive: true });
    const resized = new ResizeObserver(measure);
    resized.observe(el);
    return () => {
      el.removeEventListener('scroll', measure);
      resized.disconnect();
    };
  }, []);
  const fade = more.before && more.after ? 'fade-x-both' : more.after ? 'fade-x-end' : more.before ? 'fade-x-start' : '';
  const tabs: { place: Place; href: string; label: string }[] = [
    { place: 'home', href: '/platform/files', label: t('locations.home') },
    { place: 'recent', href: '/platform/recent-uploads', label: t('locations.recent') },
    { place: 'team', href: '/platform/team-folders', label: t('teams.team_folders') },
    { place: 'sharedWithMe', href: '/platform/shared-with-me', label: t('teams.shared_with_me') },
    { place: 'shared', href: '/platform/my-shared-items', label: t('sharing.my_shared_items') },
    { place: 'trash', href: '/platform/trash', label: t('locations.trash') },
  ];
  return (
    <div className="mb-4 flex flex-col gap-3 lg:hidden">
      <nav ref={bar} aria-label={t('files.places')} data-more={[more.before && 'before', more.after && 'after'].filter(Boolean).join(' ') || undefined} className={`-mx-1 flex gap-1 overflow-x-auto ${fade}`}>
        {tabs.map((tab) => (
          <a key={tab.href} href={tab.href} aria-current={tab.place === active ? 'page' : undefined} className={`shrink-0 rounded-full px-3.5 py-1.5 text-sm font-semibold ${tab.place === active ? 'bg-brand-soft text-brand' : 'text-muted hover:bg-surface-2'}`}>
            {tab.label}
          </a>
        ))}
      </nav>
      <StorageMeter layout="row" />
    </div>
  );
}
