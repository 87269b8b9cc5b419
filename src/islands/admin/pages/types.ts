/** A page as the admin API sends it (src/server/admin/pages.ts `present`). */
export interface PageResource {
  id: string;
  type: 'page';
  attributes: {
    slug: string;
    title: string;
    /** Only in the single-page answer; the list leaves it out. */
    content?: string;
    visible: boolean;
    legal: boolean;
    created_at: string;
    updated_at: string;
  };
  meta: { can_delete: boolean; can_change_slug: boolean };
}
