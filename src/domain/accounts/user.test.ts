import { describe, expect, it } from 'vitest';
import { validateEmail } from './user.ts';

describe('validateEmail', () => {
  it('takes an ordinary address, trimmed', () => {
    expect(validateEmail('  ana@example.fr ')).toBe('ana@example.fr');
  });

  it.each([
    ['a NUL', 'ana\u0000@example.fr'],
    ['an escape', 'ana@exa\u001bmple.fr'],
    ['a DEL', 'ana@example.fr\u007f'],
    ['a line feed inside', 'ana@exam\nple.fr'],
  ])('refuses an address holding %s', (_, email) => {
    expect(() => validateEmail(email)).toThrow();
  });
});
