import type { ReactNode } from 'react';

/** What an empty list shows, on the platform and the public pages: an icon, a title, a line and any buttons. */
export function EmptyState({ icon, title, text, children }: { icon: ReactNode; title: string; text?: string; children?: ReactNode }) {
  return (
    <div className="card flex flex-col items-center px-6 py-16 text-center">
      <span className="mb-4 flex size-14 items-center justify-center rounded-2xl bg-brand-soft text-brand">{icon}</span>
      <h2 className="text-lg font-bold">{title}</h2>
      {text && <p className="mt-1 max-w-sm text-[15px] text-muted">{text}</p>}
      {children}
    </div>
  );
}
