import { describe, expect, it } from 'vitest';
import { table } from './context.ts';
import { terminalLines, terminalText } from './terminal-text.ts';

describe('terminalText', () => {
  it.each([
    [
      'ESC sequences (clear screen, cursor up, window title)',
      '\x1b[2J\x1b[1A\x1b]0;owned\x07',
      '\\x1b[2J\\x1b[1A\\x1b]0;owned\\x07',
    ],
    ['line breaks, carriage returns and tabs', 'a\r\nb\tc', 'a\\r\\nb\\tc'],
    ['DEL and C1 controls (CSI U+009B)', 'x\x7f\x9b31m', 'x\\x7f\\x9b31m'],
    ['bidirectional overrides', 'abc\u202eexe.txt\u2066', 'abc\\u202eexe.txt\\u2066'],
    ['NUL', 'a\u0000b', 'a\\x00b'],
  ])('escapes %s', (_label, raw, shown) => {
    expect(terminalText(raw)).toBe(shown);
  });

  it('leaves printable text alone, backslashes and accents included, and is idempotent', () => {
    const text = 'Café Élysée — 5 € C:\\dir 日本 🚚';
    expect(terminalText(text)).toBe(text);
    const once = terminalText('a\x1bb\nc');
    expect(terminalText(once)).toBe(once);
  });

  it('keeps the line breaks of a block, not the controls inside its lines', () => {
    expect(terminalLines('one\x1b[2K\ntwo\r')).toBe('one\\x1b[2K\ntwo\\r');
  });

  it('escapes table cells before measuring them, so columns line up as shown', () => {
    expect(
      table([
        ['A', 'B'],
        ['x\x1by', 'z'],
      ]).split('\n'),
    ).toEqual(['A       B', 'x\\x1by  z']);
  });
});
