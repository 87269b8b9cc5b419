/**
 * The built app's folder (dist/), wherever this module runs from: bundled into the host entry
 * (dist/host/main.mjs) or a server chunk of Astro's build (dist/server/…), or from source
 * (src/server/host/, three levels below the project).
 */
const built = /^(.*\/dist\/)(?:host|server)\//.exec(import.meta.url);
export const DIST = new URL(built ? built[1]! : new URL('../../../dist/', import.meta.url).href);
