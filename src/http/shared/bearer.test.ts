import { describe, expect, it } from 'vitest';
import { bearerToken } from './bearer.ts';

describe('bearerToken', () => {
  it('reads the usual form', () => {
    expect(bearerToken('Bearer dlv_abc')).toBe('dlv_abc');
  });

  it('reads the forms the short cut leaves to the pattern: any case, extra spaces', () => {
    expect(bearerToken('bearer dlv_abc')).toBe('dlv_abc');
    expect(bearerToken('BEARER  dlv_abc')).toBe('dlv_abc');
    expect(bearerToken('Bearer dlv_abc  ')).toBe('dlv_abc');
  });

  it('tells a missing header (null) from one that is not a bearer credential (empty)', () => {
    expect(bearerToken(undefined)).toBeNull();
    expect(bearerToken('')).toBeNull();
    expect(bearerToken('Basic dXNlcjpwYXNz')).toBe('');
    expect(bearerToken('Bearer ')).toBe('');
    expect(bearerToken('Bearer a b')).toBe('');
    expect(bearerToken('Bearer\tdlv_abc')).toBe('');
    expect(bearerToken('Bearer dlv\u00a0abc')).toBe('');
  });
});
