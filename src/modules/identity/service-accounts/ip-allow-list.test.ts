import { describe, expect, it } from 'vitest';
import { ipAllowed, normaliseAllowedIp } from './ip-allow-list.js';

describe("a token's IP allow-list", () => {
  it('takes addresses and CIDR ranges of both families, and nothing else', () => {
    expect(normaliseAllowedIp(' 192.0.2.7 ')).toBe('192.0.2.7');
    expect(normaliseAllowedIp('10.0.0.0/8')).toBe('10.0.0.0/8');
    expect(normaliseAllowedIp('2001:DB8::/32')).toBe('2001:db8::/32');
    for (const bad of ['', 'example.com', '10.0.0.0/33', '2001:db8::/129', '10.0.0.1/8/1', '10.0.0.0/x', '300.1.1.1']) {
      expect(normaliseAllowedIp(bad), bad).toBeNull();
    }
  });

  it('allows an address inside an entry, refuses one outside, and allows all without a list', () => {
    const list = ['192.0.2.7', '10.1.0.0/16', '2001:db8::/32'];
    expect(ipAllowed(list, '192.0.2.7')).toBe(true);
    expect(ipAllowed(list, '10.1.200.3')).toBe(true);
    expect(ipAllowed(list, '::ffff:10.1.0.9')).toBe(true);
    expect(ipAllowed(list, '2001:db8:1::5')).toBe(true);
    expect(ipAllowed(list, '192.0.2.8')).toBe(false);
    expect(ipAllowed(list, '10.2.0.1')).toBe(false);
    expect(ipAllowed(list, '2001:db9::1')).toBe(false);
    expect(ipAllowed(null, '203.0.113.5')).toBe(true);
    expect(ipAllowed([], '203.0.113.5')).toBe(true);
  });
});
