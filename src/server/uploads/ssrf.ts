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
  ['::ffff:0:0:0', 96], // IPv4-translated (SIIT)
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
  if (family === 4) return blocked.check(address, 'ipv4');
  if (blocked.check(address, 'ipv6')) return true;
  // IPv4-compatible `::a.b.c.d` (deprecated, never routed) and IPv4-mapped `::ffff:a.b.c.d` are checked
  // here, not in the BlockList: Node's BlockList matches plain IPv4 addresses against those IPv6 rules
  // (a `::ffff:0:0/96` rule there refused every public IPv4 address).
  const groups = ipv6Groups(address);
  if (!groups || groups.slice(0, 6).every((g) => g === 0)) return true;
  // A mapped, translated, NAT64 or 6to4 form of a blocked IPv4 address is as blocked as the address.
  const embedded = embeddedIpv4(address);
  return embedded !== null && blocked.check(embedded, 'ipv4');
}

/** The eight 16-bit groups of an IPv6 address (with `::` and a dotted IPv4 tail expanded), or null. */
export function ipv6Groups(address: string): number[] | null {
  let text = address.toLowerCase().replace(/%.*$/, '');
  const dotted = text.match(/^(.*:)(\d+\.\d+\.\d+\.\d+)$/);
  if (dotted) {
    if (isIP(dotted[2]!) !== 4) return null;
    const [a, b, c, d] = dotted[2]!.split('.').map(Number) as [number, number, number, number];
    text = `${dotted[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const part = (s: string | undefined) => (s ? s.split(':') : []);
  const head = part(halves[0]);
  const tail = part(halves[1]);
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 0) return null;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...tail].map((g) => (/^[0-9a-f]{1,4}$/.test(g) ? parseInt(g, 16) : NaN));
  return groups.length === 8 && groups.every((g) => !Number.isNaN(g)) ? groups : null;
}

/**
 * The IPv4 address an IPv6 address carries: IPv4-compatible `::a.b.c.d`, mapped `::ffff:a.b.c.d`,
 * translated `::ffff:0:a.b.c.d`, NAT64 `64:ff9b::a.b.c.d` (and the local `64:ff9b:1::/48`), 6to4
 * `2002:AABB:CCDD::`; null for any other.
 */
export function embeddedIpv4(address: string): string | null {
  const g = ipv6Groups(address);
  if (!g) return null;
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
  const zero = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zero(0, 5) && (g[5] === 0 || g[5] === 0xffff)) return v4(g[6]!, g[7]!);
  if (zero(0, 4) && g[4] === 0xffff && g[5] === 0) return v4(g[6]!, g[7]!);
  if (g[0] === 0x64 && g[1] === 0xff9b && (zero(2, 6) || g[2] === 1)) return v4(g[6]!, g[7]!);
  if (g[0] === 0x2002) return v4(g[1]!, g[2]!);
  return null;
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
