import { useLayoutEffect, useRef, type FocusEvent, type KeyboardEvent, type RefObject } from 'react';

/**
 * Roving tabindex (WAI-ARIA composite widgets: a toolbar, a list of links): the group is one tab
 * stop, the item last focused in it (else the one matching `preferred`, else the first), and arrow
 * keys, Home and End move between its items. Items are found in the DOM by `selector`, so buttons
 * drawn by other components (menu triggers) take part; hidden ones are skipped, and the stop moves
 * on when its item goes.
 */
export function useRovingFocus<T extends HTMLElement>(ref: RefObject<T | null>, selector: string, orientation: 'horizontal' | 'vertical', preferred?: string) {
  /** The item last focused in the group: it keeps the tab stop while it is there. */
  const chosen = useRef<HTMLElement | null>(null);
  const items = () => [...(ref.current?.querySelectorAll<HTMLElement>(selector) ?? [])].filter((el) => el.offsetWidth > 0 || el.offsetHeight > 0);

  const settle = () => {
    const all = items();
    const kept = chosen.current && all.includes(chosen.current) ? chosen.current : null;
    const current = kept ?? (preferred ? all.find((el) => el.matches(preferred)) : undefined) ?? all[0];
    for (const el of all) el.tabIndex = el === current ? 0 : -1;
  };
  const choose = (el: HTMLElement) => {
    chosen.current = el;
    settle();
  };

  // After every render (items come and go with the selection) and whenever the group is resized
  // (an item hidden at this width must not keep the only tab stop).
  useLayoutEffect(settle);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const observer = new ResizeObserver(settle);
    observer.observe(el);
    return () => observer.disconnect();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [ref]);

  const [back, forward] = orientation === 'horizontal' ? ['ArrowLeft', 'ArrowRight'] : ['ArrowUp', 'ArrowDown'];
  return {
    onKeyDown(event: KeyboardEvent<T>) {
      const all = items();
      const index = all.indexOf(event.target as HTMLElement);
      // Keys pressed elsewhere (a menu opened from an item, drawn in a portal) are not the group's.
      if (index === -1) return;
      const to = event.key === back ? index - 1 : event.key === forward ? index + 1 : event.key === 'Home' ? 0 : event.key === 'End' ? all.length - 1 : null;
      if (to === null) return;
      event.preventDefault();
      const next = all[Math.max(0, Math.min(all.length - 1, to))];
      if (!next) return;
      choose(next);
      next.focus();
    },
    onFocus(event: FocusEvent<T>) {
      if (items().includes(event.target as HTMLElement)) choose(event.target as HTMLElement);
    },
  };
}
