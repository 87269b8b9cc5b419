import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { uploadName } from './names.ts';
import { RemoteRefusal, resolveTarget } from './ssrf.ts';

/**
 * The fetch of one import from URL: a GET that follows redirects by hand (at most
 * REMOTE_MAX_REDIRECTS), each hop through the SSRF guard (ssrf.ts) and connected to the checked
 * address with the original Host and TLS server name, an idle timeout and the caller's deadline;
 * and the file name the answer gives.
 */
export const REMOTE_MAX_REDIRECTS = 5;
export const REMOTE_IDLE_MS = 30_000;

/** GETs the URL, following redirects by hand; every hop goes through the SSRF guard first. */
export async function fetchGuarded(start: URL, allowlist: readonly string[], deadline: AbortSignal): Promise<{ response: IncomingMessage; url: URL }> {
  let url = start;
  for (let hop = 0; hop <= REMOTE_MAX_REDIRECTS; hop += 1) {
    const target = await resolveTarget(url, allowlist);
    const response = await get(url, target.address, deadline);
    const status = response.statusCode ?? 0;
    if ([301, 302, 303, 307, 308].includes(status)) {
      const location = response.headers.location;
      response.destroy();
      if (!location) throw new RemoteRefusal(`The server answered ${status} without a Location.`);
      url = new URL(location, url);
      continue;
    }
    if (status !== 200) {
      response.destroy();
      throw new RemoteRefusal(`The server answered ${status}.`);
    }
    return { response, url };
  }
  throw new RemoteRefusal('Too many redirects.');
}

function get(url: URL, address: string, deadline: AbortSignal): Promise<IncomingMessage> {
  const secure = url.protocol === 'https:';
  return new Promise((resolve, reject) => {
    const req = (secure ? https : http).request({
      host: address,
      port: url.port || (secure ? 443 : 80),
      path: `${url.pathname}${url.search}`,
      method: 'GET',
      headers: { Host: url.host, 'User-Agent': 'CloudDrive-Import/1.0', Accept: '*/*', 'Accept-Encoding': 'identity' },
      // TLS: the certificate is checked against the URL's host name, not the address.
      ...(secure ? { servername: url.hostname.replace(/^\[|\]$/g, '') } : {}),
      signal: deadline,
      agent: false,
    });
    req.setTimeout(REMOTE_IDLE_MS, () => req.destroy(new RemoteRefusal('The server stopped answering.')));
    req.on('response', resolve);
    req.on('error', (error) => reject(error instanceof RemoteRefusal ? error : deadline.aborted ? new RemoteRefusal('The download took too long.') : error));
    req.end();
  });
}

/** The file name: Content-Disposition's, else the URL's last path segment, made acceptable; `download` at worst. */
export function nameFor(response: IncomingMessage, url: URL): string {
  const disposition = response.headers['content-disposition'] ?? '';
  const star = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(disposition)?.[1];
  const plain = /filename\s*=\s*"?([^";]+)"?/.exec(disposition)?.[1];
  const last = url.pathname.split('/').filter(Boolean).pop();
  for (const raw of [star, plain, last]) {
    if (!raw) continue;
    let decoded = raw;
    try {
      decoded = decodeURIComponent(raw);
    } catch {
      /* keep it as it is */
    }
    // eslint-disable-next-line no-control-regex
    const cleaned = decoded.replace(/[\u0000-\u001f\u007f/\\]/g, '_').trim();
    try {
      return uploadName(cleaned);
    } catch {
      /* try the next source */
    }
  }
  return 'download';
}
