/** The wizard's pages (SPEC §2 /install and /setup-wizard/*) and its API. */
export function isSetupPath(pathname: string): boolean {
  return pathname === '/install' || pathname === '/install/' || /^\/setup-wizard(\/|$)/.test(pathname) || /^\/api\/setup(\/|$)/.test(pathname);
}
