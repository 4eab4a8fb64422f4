import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hasTokenShape, issueToken, parseToken, secretMatches } from './integration-token.js';

describe('integration tokens: prefixed for secret scanners, only a hash of the secret kept', () => {
  it('a token carries its kind and id, and its secret matches the stored hash only', () => {
    const id = randomUUID();
    const issued = issueToken('sa', id);
    expect(issued.token).toMatch(/^rsk_sa_[0-9a-f]{32}_[A-Za-z0-9_-]{43}$/);
    expect(issued.token).not.toContain(issued.secretHash);
    const parsed = parseToken('sa', issued.token)!;
    expect(parsed.id).toBe(id);
    expect(secretMatches(parsed.secret, issued.secretHash)).toBe(true);
    expect(secretMatches(`${parsed.secret.slice(0, -1)}A`, issued.secretHash)).toBe(parsed.secret.endsWith('A'));
    expect(issued.hint.startsWith('rsk_sa_')).toBe(true);
  });

  it('a token of one kind is not one of the other, and malformed tokens parse to nothing', () => {
    const issued = issueToken('scim', randomUUID());
    expect(hasTokenShape('scim', issued.token)).toBe(true);
    expect(hasTokenShape('sa', issued.token)).toBe(false);
    expect(parseToken('sa', issued.token)).toBeNull();
    expect(parseToken('scim', `${issued.token}x`)).toBeNull();
    expect(parseToken('scim', 'rsk_scim_short_secret')).toBeNull();
  });
});
