import type { MouseEvent, ReactNode } from 'react';
import { useT } from '../../stores/i18n.ts';
import { Spotlight } from '../spotlight/Spotlight.tsx';
import { AlertPopup } from './AlertPopup.tsx';
import { CookieNotice } from './CookieNotice.tsx';
import { LogoutNotice } from './LogoutNotice.tsx';
import { MobileBar } from './MobileBar.tsx';
import { RestrictedBar } from './RestrictedBar.tsx';
import { Sidebar, SidebarAccount } from './Sidebar.tsx';
import { Toasts } from './Toasts.tsx';
import { VerifyEmailBar } from './VerifyEmailBar.tsx';
import { UploadQueue } from '../uploads/UploadQueue.tsx';

/**
 * Skip to content lands on the screen's own starting point (the file list, marked data-skip-target),
 * or on <main> itself: following the #main hash alone only moves where the next Tab starts, which on
 * a file screen is the places, favourites and tree before the list.
 */
function skipToContent(event: MouseEvent) {
  const target = document.querySelector<HTMLElement>('main [data-skip-target]') ?? document.getElementById('main');
  if (!target) return;
  event.preventDefault();
  target.focus();
}

/**
 * The signed-in frame: sidebar (large screens) or top bar, the page, and the app-wide overlays.
 * `sidebar` is what the screen adds to the sidebar under the app's sections (the file area's navigation).
 */
export function AppShell({ children, wide = false, sidebar }: { children: ReactNode; wide?: boolean; sidebar?: ReactNode }) {
  const t = useT();
  return (
    <>
      <a href="#main" onClick={skipToContent} className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-[70] focus:rounded-control focus:bg-surface focus:px-3 focus:py-2">
        {t('app.skip_to_content')}
      </a>
      <RestrictedBar />
      <VerifyEmailBar />
      <div className="flex min-h-dvh">
        <Sidebar>{sidebar}</Sidebar>
        <div className="flex min-w-0 flex-1 flex-col">
          <MobileBar />
          <main id="main" tabIndex={-1} className={`outline-none mx-auto w-full flex-1 px-4 py-6 sm:px-6 lg:px-8 lg:py-8 ${wide ? 'max-w-[1600px]' : 'max-w-5xl lg:px-10 lg:py-10'}`}>
            <CookieNotice />
            {children}
          </main>
        </div>
        <SidebarAccount />
      </div>
      <UploadQueue />
      <Toasts />
      <AlertPopup />
      <Spotlight />
      <LogoutNotice />
    </>
  );
}
