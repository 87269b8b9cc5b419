/**
 * The list's column widths, the same in its header and its rows (both span the list), on the
 * platform and on the public pages. The trash's location takes a share of the row, and its size
 * and date columns are narrower to leave the name room.
 */
export const LOCATION_WIDTH = 'w-[26%] min-w-0 shrink-0';
export const TEAM_DETAIL_WIDTH = 'w-72';
export const SIZE_WIDTH = { normal: 'w-28', narrow: 'w-20' } as const;
export const DATE_WIDTH = { normal: 'w-32', narrow: 'w-28' } as const;
/** A list row's icon (ItemIcon md), the header's place over it. */
export const ICON_WIDTH = 'w-9';
