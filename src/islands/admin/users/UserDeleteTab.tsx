/** A tab of the admin's user screen (/admin/user/:id/...); its real content lands with its own change. */
export default function Tab(_props: { userId: string; onChanged?: () => void }) {
  return null;
}
