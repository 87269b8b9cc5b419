import { describe, expect, it } from 'vitest';
import { embeddedIpv4, ipv6Groups, isForbiddenAddress, resolveTarget, RemoteRefusal } from '../../src/server/uploads/ssrf.ts';

describe('the SSRF guard', () => {
  it.each([
    '127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1',
    '::1', '::', 'fe80::1', 'fc00::1', 'fd12:3456::1',
    // IPv4-mapped, -compatible and -translated forms of blocked IPv4 ranges
    '::ffff:127.0.0.1', '::ffff:7f00:1', '0:0:0:0:0:ffff:7f00:1', '::ffff:a9fe:a9fe', '::ffff:10.0.0.1', '::ffff:192.168.0.1',
    '::127.0.0.1', '::7f00:1', '::ffff:0:127.0.0.1',
    // NAT64 and 6to4 of private ranges
    '64:ff9b::10.0.0.1', '64:ff9b::7f00:1', '64:ff9b::a9fe:a9fe', '64:ff9b:1::8.8.8.8', '2002:7f00:1::', '2002:c0a8:101::1',
    'not an address',
  ])('refuses %s', (address) => {
    expect(isForbiddenAddress(address)).toBe(true);
  });

  it.each(['8.8.8.8', '1.1.1.1', '93.184.216.34', '2606:4700::1111', '2001:4860:4860::8888', '::ffff:8.8.8.8', '64:ff9b::8.8.8.8'])('lets the public address %s through', (address) => {
    expect(isForbiddenAddress(address)).toBe(false);
  });

  it('reads the IPv4 address inside an IPv6 one', () => {
    expect(ipv6Groups('::ffff:127.0.0.1')).toEqual([0, 0, 0, 0, 0, 0xffff, 0x7f00, 1]);
    expect(ipv6Groups('1:2:3:4:5:6:7:8:9')).toBeNull();
    expect(ipv6Groups('1::2::3')).toBeNull();
    expect(embeddedIpv4('::ffff:7f00:1')).toBe('127.0.0.1');
    expect(embeddedIpv4('64:ff9b::a00:1')).toBe('10.0.0.1');
    expect(embeddedIpv4('2002:a9fe:a9fe::')).toBe('169.254.169.254');
    expect(embeddedIpv4('2606:4700::1111')).toBeNull();
  });

  it('refuses URLs whose literal host is a mapped or compatible loopback address', async () => {
    for (const url of ['http://[::ffff:127.0.0.1]/', 'http://[::127.0.0.1]/', 'http://[::ffff:7f00:1]:8080/', 'http://[64:ff9b::10.0.0.1]/', 'http://2130706433/', 'http://0x7f.1/']) {
      await expect(resolveTarget(new URL(url), [])).rejects.toBeInstanceOf(RemoteRefusal);
    }
  });
});
