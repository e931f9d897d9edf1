/**
 * How many SMS a text takes, as Twilio counts `num_segments` (3GPP TS 23.038 and 23.040): in the
 * GSM-7 default alphabet, 160 septets in one SMS, else 153 per part (the rest is the concatenation
 * header), an extension-table character taking two septets that are never split; any character
 * outside it turns the whole text to UCS-2: 70 UTF-16 units in one SMS, else 67 per part, a
 * surrogate pair never split.
 */
const GSM7_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞ\u001bÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?' +
  '¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const GSM7_EXTENSION = '\f^{}\\[~]|€';

export interface SegmentCount {
  encoding: 'GSM-7' | 'UCS-2';
  segments: number;
}

export function countSegments(text: string): SegmentCount {
  const septets: number[] = [];
  for (const char of text) {
    if (char !== '\u001b' && GSM7_BASIC.includes(char)) septets.push(1);
    else if (GSM7_EXTENSION.includes(char)) septets.push(2);
    else return { encoding: 'UCS-2', segments: ucs2Segments(text) };
  }
  const total = septets.reduce((a, b) => a + b, 0);
  if (total <= 160) return { encoding: 'GSM-7', segments: 1 };
  return { encoding: 'GSM-7', segments: pack(septets, 153) };
}

function ucs2Segments(text: string): number {
  const units = [...text].map((char) => char.length);
  const total = units.reduce((a, b) => a + b, 0);
  return total <= 70 ? 1 : pack(units, 67);
}

/** Parts of `size` units, an indivisible item (an escape pair, a surrogate pair) moved whole to the next. */
function pack(items: number[], size: number): number {
  let parts = 1;
  let used = 0;
  for (const item of items) {
    if (used + item > size) {
      parts += 1;
      used = 0;
    }
    used += item;
  }
  return parts;
}
