/** A tab of the admin's settings screen (/admin/settings/...); its real content lands with its own change. */
export default function Tab() {
  return null;
}
