/**
 * Characters a terminal acts on instead of showing: C0 controls (ESC starts the sequences that move
 * the cursor, clear the screen, set the window title or write the clipboard), DEL, C1 controls (CSI
 * U+009B is ESC [ on some terminals) and the bidirectional controls that reorder what is shown.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * One value as the operator's terminal may show it: every control character written as an escape
 * (`\x1b`, `\n`, `\u202e`), so text from the public (company names, webhook request messages,
 * receivers' and shops' answers) cannot rewrite the screen through `dlv … list`. Idempotent (a
 * backslash is left alone), so a table cell escaped here may be escaped again as part of its line.
 * Human output only: `--json` stays exact (JSON escapes control characters itself).
 */
export function terminalText(text: string): string {
  return text.replace(UNSAFE, (char) => {
    const code = char.charCodeAt(0);
    return NAMED[char] ?? (code <= 0xff ? `\\x${hex(code, 2)}` : `\\u${hex(code, 4)}`);
  });
}

/** A block of human output: each of its lines through terminalText, the line breaks kept. */
export function terminalLines(text: string): string {
  return text.split('\n').map(terminalText).join('\n');
}

const hex = (code: number, width: number) => code.toString(16).padStart(width, '0');
