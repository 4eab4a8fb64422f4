import { describe, expect, it } from 'vitest';
import { isAllowedRedirect } from './redirects.js';

describe('AUTH_REDIRECT_URLS allow-list', () => {
  const list = ['http://service.test', 'https://app.example/console'];

  it.each([
    ['http://service.test', true],
    ['http://service.test/anything?x=1', true],
    ['https://app.example/console', true],
    ['https://app.example/console/welcome', true],
    ['https://app.example/consoleevil', false],
    ['https://app.example/', false],
    ['https://service.test', false],
    ['http://service.test.evil.example', false],
    ['http://user:pw@service.test/', false],
    ['javascript:alert(1)', false],
    ['/relative', false],
    ['not a url', false],
  ])('%s → %s', (candidate, allowed) => {
    expect(isAllowedRedirect(candidate, list)).toBe(allowed);
  });
});
