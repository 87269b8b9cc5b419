import { Link2 } from 'lucide-react';
import type { HTMLAttributes, ReactNode, Ref } from 'react';
import type { Item } from '../../stores/files.ts';
import { useT } from '../../stores/i18n.ts';
import { ItemIcon } from '../platform/ItemIcon.tsx';
import { DATE_WIDTH, LOCATION_WIDTH, SIZE_WIDTH } from './columns.ts';

/**
 * One item as a list row, the same on the platform and on the public share and upload-request
 * pages. The caller gives what makes it work there: `label` wraps the icon and name (an option of
 * the platform's listbox, or the button that opens it on a public page), `leading` goes before it
 * (the select-mode checkbox), `trailing` after the columns (a public page's item buttons); the
 * other props (pointer, drag and drop handlers, a menu trigger's) go on the row.
 *
 * The ids `${prefix}-${item.id}-name|detail|date|location` are for the label's aria-labelledby and
 * aria-describedby: the option's or button's own text is the name alone (label in name, WCAG
 * 2.5.3); size and date sit beside it as its description.
 */
export function ItemRow({ item, prefix, detail, date, location, detailWidth = SIZE_WIDTH.normal, dateWidth = DATE_WIDTH.normal, detailTitle, label, leading, trailing, className, ...row }: Omit<HTMLAttributes<HTMLDivElement>, 'children'> & {
  item: Item;
  prefix: string;
  detail: string;
  date: string;
  /** Where a trashed item was: leads the phone's line, and has its own column. */
  location?: string | null;
  detailWidth?: string;
  dateWidth?: string;
  detailTitle?: string;
  label: (content: ReactNode) => ReactNode;
  leading?: ReactNode;
  trailing?: ReactNode;
  className: string;
  /** A context menu's trigger (Radix asChild) passes its ref and handlers on to the row. */
  ref?: Ref<HTMLDivElement>;
  draggable?: boolean;
}) {
  const id = `${prefix}-${item.id}`;
  return (
    <div {...row} className={`flex items-center gap-3 ${className}`}>
      {leading}
      {label(
        <>
          <ItemIcon item={item} />
          <span className="block min-w-0 flex-1">
            <span className="flex min-w-0 items-center gap-1.5">
              <span id={`${id}-name`} className="block truncate text-[15px] font-medium">
                {item.attributes.name}
              </span>
              {item.relationships?.shared && <SharedMark className="size-4" />}
            </span>
            {/* The phone's size and date line repeats the description: drawn (not text) so the label's text stays its name. */}
            {/* In the trash, where it was leads: the rest may be cut off. */}
            <span className="block truncate text-xs text-muted before:content-[attr(data-line)] sm:hidden" data-line={[location, detail, date].filter(Boolean).join(' · ')} aria-hidden />
          </span>
        </>,
      )}
      {location && (
        <span id={`${id}-location`} className={`hidden truncate text-sm text-muted sm:block ${LOCATION_WIDTH}`} title={location} data-testid="item-location" aria-hidden>
          {location}
        </span>
      )}
      <span id={`${id}-detail`} className={`hidden shrink-0 truncate text-right text-sm text-muted tabular-nums sm:block ${detailWidth}`} title={detailTitle} aria-hidden>
        {detail}
      </span>
      <span id={`${id}-date`} className={`hidden shrink-0 text-right text-sm text-muted sm:block ${dateWidth}`} aria-hidden>
        {date}
      </span>
      {trailing}
    </div>
  );
}

/** The ids that describe an item's label: its detail and date, and where it was when there is a location. */
export const describedBy = (prefix: string, item: Item, location?: string | null) =>
  `${prefix}-${item.id}-detail ${prefix}-${item.id}-date${location ? ` ${prefix}-${item.id}-location` : ''}`;

/** The shared mark beside a shared item's name (its link state is in the share dialog). */
export function SharedMark({ className }: { className: string }) {
  const t = useT();
  return (
    <span title={t('sharing.shared')} data-testid="shared-icon" className="shrink-0 text-brand">
      <Link2 className={className} aria-hidden />
    </span>
  );
}
