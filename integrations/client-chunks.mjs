// @ts-check

/**
 * Fewer, larger client chunks for the signed-in app. Left to itself the bundler splits the app into
 * one chunk per shared module (every icon, every small helper): the cold file area asked for 51
 * scripts, and a browser sends at most six requests at a time to one HTTP/1.1 host, so the first
 * list waited on rounds of small requests and the listing's own request queued behind them.
 * Grouped by the set of islands that share them (small groups merged below 10 kB), the app's
 * shell and file area come in 25 requests and a sign-in page's island still loads only its own
 * few. Only the browser build is touched; the server build keeps its default splitting.
 * @returns {import('vite').Plugin}
 */
export function clientChunks() {
  return {
    name: 'client-chunks',
    configEnvironment(name) {
      if (name !== 'client') return;
      return {
        build: {
          rolldownOptions: {
            output: {
              codeSplitting: {
                groups: [
                  // What islands' first render imports, grouped by the set of islands that import
                  // it: the app's shell comes in a few chunks, and a sign-in page loads none of it.
                  { name: 'vendor', test: /[\\/]node_modules[\\/]/, tags: ['$initial'], entriesAware: true, entriesAwareMergeThreshold: 10_000, priority: 30 },
                  { name: 'shell', tags: ['$initial'], entriesAware: true, entriesAwareMergeThreshold: 10_000, priority: 20 },
                  // The file area's screens, list, menus and the icons they draw.
                  { name: 'file-area', test: /[\\/]src[\\/](islands[\\/](platform|files)|components)[\\/]|[\\/]node_modules[\\/]lucide-react[\\/]/, priority: 10 },
                ],
              },
            },
          },
        },
      };
    },
  };
}
