import { describe, expect, it } from 'vitest';
import { containsPattern } from './contains-pattern.js';

describe('containsPattern', () => {
  it('wraps the text in % and escapes what LIKE would read as a wildcard or an escape', () => {
    expect(containsPattern('Payments')).toBe('%Payments%');
    expect(containsPattern('10%_off')).toBe('%10\\%\\_off%');
    expect(containsPattern('a\\b')).toBe('%a\\\\b%');
  });
});
