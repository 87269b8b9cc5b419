import type { ReactNode } from 'react';

/**
 * The column labels over a list of items (ItemRow), the same on the platform and the public pages:
 * shown from the small-tablet width up, where the rows show their columns. `children` are the
 * columns, each with the width its rows' cells have (columns.ts).
 */
export function ListHeaderRow({ children }: { children: ReactNode }) {
  return (
    <div className="mb-1 hidden items-center gap-3 border-b border-border px-3 pb-2 text-xs font-semibold tracking-wide text-muted uppercase sm:flex" data-testid="list-header">
      {children}
    </div>
  );
}

/** A column label that does not sort. */
export function ColumnLabel({ label, className }: { label: string; className: string }) {
  return <span className={`${className} flex`}>{label}</span>;
}
