import { expect, signUpAndOpen, test } from './fixtures.ts';

// A printed figure, not an assertion: how long a cold visit to the file area takes to show its
// first list, and how much JavaScript it transferred (compressed) to get there (scripts fetched
// in idle time after it are not counted).
test('prints the time to the first list on a cold file area', async ({ page, browser }) => {
  await signUpAndOpen(page);
  const res = await page.request.post('/api/create-folder', { data: { name: 'Measured', parent_id: null }, headers: { Origin: process.env.E2E_BASE_URL!, 'X-Requested-With': 'XMLHttpRequest' } });
  expect(res.status()).toBe(201);
  const cookies = await page.context().cookies();

  // A new context: an empty cache, the same session.
  const cold = await browser.newContext();
  await cold.addCookies(cookies);
  const fresh = await cold.newPage();
  // Noted in the page itself, the moment the first item is in the document.
  await fresh.addInitScript(() => {
    const seen = new MutationObserver(() => {
      if (document.querySelector('[role="option"]')) {
        (window as unknown as { firstList: number }).firstList = performance.now();
        seen.disconnect();
      }
    });
    seen.observe(document, { childList: true, subtree: true });
    // Main-thread tasks over 50 ms (start+duration): on a busy machine they show where the time went.
    const longTasks: string[] = [];
    (window as unknown as { longTasks: string[] }).longTasks = longTasks;
    new PerformanceObserver((list) => {
      for (const task of list.getEntries()) longTasks.push(`${Math.round(task.startTime)}+${Math.round(task.duration)}`);
    }).observe({ type: 'longtask', buffered: true });
  });
  await fresh.goto('/platform/files', { waitUntil: 'commit' });
  await expect(fresh.getByRole('option', { name: 'Measured' })).toBeVisible();
  const figures = await fresh.evaluate(() => {
    const resources = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
    const firstList = (window as unknown as { firstList: number }).firstList;
    // The scripts the first list waited for, not the ones fetched in idle time after it.
    const js = resources.filter((r) => r.name.endsWith('.js') && r.responseEnd <= firstList);
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
    const api = resources.filter((r) => r.name.includes('/api/') && r.responseEnd <= firstList);
    return {
      longTasks: (window as unknown as { longTasks: string[] }).longTasks.join(', '),
      html: Math.round(nav.responseEnd),
      domContentLoaded: Math.round(nav.domContentLoadedEventEnd),
      lastScript: Math.round(Math.max(0, ...js.map((r) => r.responseEnd))),
      firstScriptStart: Math.round(Math.min(...js.map((r) => r.startTime))),
      api: api.map((r) => `${new URL(r.name).pathname} ${Math.round(r.startTime)}–${Math.round(r.responseEnd)}`).join(', '),
      firstList: Math.round(firstList),
      jsFiles: js.length,
      jsTransferredKb: Math.round(js.reduce((sum, r) => sum + r.transferSize, 0) / 1024),
      jsDecodedKb: Math.round(js.reduce((sum, r) => sum + r.decodedBodySize, 0) / 1024),
    };
  });
  console.log(`cold file area: first list on screen after ${figures.firstList} ms; ${figures.jsFiles} scripts, ${figures.jsTransferredKb} KB transferred (${figures.jsDecodedKb} KB decoded)`);
  console.log(`  document ${figures.html} ms, scripts ${figures.firstScriptStart}–${figures.lastScript} ms, DOMContentLoaded ${figures.domContentLoaded} ms, API ${figures.api || 'none'}; long tasks ${figures.longTasks || 'none'}`);
  await cold.close();
});
