import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * The SSRF guard of import-from-URL: a URL may only be fetched when every address its host
 * resolves to is a public unicast address. Checked on the initial URL and on every redirect, and
 * the connection then goes to the address checked (no second lookup an attacker's DNS could answer
 * differently). `host:port` pairs on the admin allowlist (`remote_upload_allowlist`) skip the
 * address check: tests fetch from a local server that way.
 */
const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this" network
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata (169.254.169.254)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  blocked.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['::ffff:0:0', 96], // IPv4-mapped
  ['64:ff9b::', 96], // NAT64 (embeds an IPv4 address)
  ['64:ff9b:1::', 48], // local NAT64
  ['100::', 64], // discard
  ['2001::', 32], // Teredo
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4 (embeds an IPv4 address)
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const) {
  blocked.addSubnet(net, prefix, 'ipv6');
}

export function isForbiddenAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  return blocked.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

export class RemoteRefusal extends Error {}

export interface ResolvedTarget {
  address: string;
  family: 4 | 6;
}

/** The address to connect to for this URL, or a RemoteRefusal saying why it may not be fetched. */
export async function resolveTarget(url: URL, allowlist: readonly string[]): Promise<ResolvedTarget> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new RemoteRefusal('Only http and https URLs can be imported.');
  if (url.username || url.password) throw new RemoteRefusal('URLs with credentials are not imported.');
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  const allowed = allowlist.some((entry) => entry.toLowerCase() === `${host}:${port}` || entry.toLowerCase() === `[${host}]:${port}`);
  let addresses: { address: string; family: number }[];
  if (isIP(host)) {
    addresses = [{ address: host, family: isIP(host) }];
  } else {
    try {
      addresses = await lookup(host, { all: true, verbatim: true });
    } catch {
      throw new RemoteRefusal(`The host ${host} could not be resolved.`);
    }
  }
  if (!addresses.length) throw new RemoteRefusal(`The host ${host} could not be resolved.`);
  if (!allowed && addresses.some((a) => isForbiddenAddress(a.address))) {
    throw new RemoteRefusal(`The address of ${host} is private, loopback, link-local or reserved: refused.`);
  }
  const first = addresses[0]!;
  return { address: first.address, family: first.family === 6 ? 6 : 4 };
}
