/** Starts a download without leaving the page (the file area's and the public share pages'). */
export function startDownload(url: string): void {
  const a = document.createElement('a');
  a.href = url;
  // The server names the file (Content-Disposition). target=_self keeps the history-mode router
  // from taking the click for an in-app link (it skips only non-empty `download` attributes).
  a.target = '_self';
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
}
