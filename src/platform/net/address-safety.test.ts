import { describe, expect, it } from 'vitest';
import { refusedAddress, refusedUrl } from './address-safety.js';

describe('webhook address safety (SSRF)', () => {
  it.each([
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '::',
    'fd00::1',
    'fe80::1',
    '::ffff:10.0.0.1',
    '::ffff:169.254.169.254',
  ])('refuses %s whatever the loopback setting', (address) => {
    expect(refusedAddress(address, false)).not.toBeNull();
    expect(refusedAddress(address, true)).not.toBeNull();
  });

  it.each(['127.0.0.1', '127.9.9.9', '::1', '::ffff:127.0.0.1'])('refuses loopback %s unless loopback is allowed', (address) => {
    expect(refusedAddress(address, false)).toMatch(/loopback/);
    expect(refusedAddress(address, true)).toBeNull();
  });

  it.each(['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946', '8.8.8.8'])('lets public %s through', (address) => {
    expect(refusedAddress(address, false)).toBeNull();
  });

  it('registration takes https only, with a public literal address or a name', () => {
    expect(refusedUrl('https://hooks.example.com/in', false)).toBeNull();
    expect(refusedUrl('https://93.184.216.34/in', false)).toBeNull();
    expect(refusedUrl('http://hooks.example.com/in', false)).toBe('must use https');
    expect(refusedUrl('ftp://hooks.example.com/in', false)).toBe('must use https');
    expect(refusedUrl('not a url', false)).toBe('must be an absolute URL');
    expect(refusedUrl('https://user:pw@hooks.example.com/', false)).toBe('must not carry credentials');
    expect(refusedUrl('https://10.0.0.8/in', false)).toMatch(/private/);
    expect(refusedUrl('https://169.254.169.254/latest/meta-data', false)).toMatch(/link-local/);
    expect(refusedUrl('https://[fd12::1]/in', false)).toMatch(/private/);
  });

  it('loopback (by address or name) only with WEBHOOKS_ALLOW_LOOPBACK, and then over http too', () => {
    expect(refusedUrl('https://[::1]/in', false)).toMatch(/loopback/);
    expect(refusedUrl('http://[::1]:8080/in', false)).toBe('must use https');
    expect(refusedUrl('https://localhost/in', false)).toMatch(/loopback/);
    expect(refusedUrl('https://127.0.0.1/in', false)).toMatch(/loopback/);
    expect(refusedUrl('http://127.0.0.1:9000/in', true)).toBeNull();
    expect(refusedUrl('http://[::1]:9000/in', true)).toBeNull();
    expect(refusedUrl('http://localhost:9000/in', true)).toBeNull();
    expect(refusedUrl('http://hooks.example.com/in', true)).toBe('must use https');
  });
});
