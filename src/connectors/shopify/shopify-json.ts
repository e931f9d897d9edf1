/**
 * Shopify's numeric ids (orders, customers, line items, the ids listed in privacy requests) exceed
 * 2^53, which JSON.parse would round. Before parsing, every integer literal of 16 digits or more
 * outside strings is quoted, so it arrives as the exact string: only ids are that long (amounts are
 * strings in Shopify's payloads), and such a number could not have been read exactly anyway.
 */
export function parseShopifyJson(text: string): unknown {
  return JSON.parse(quoteLongIntegers(text));
}

const LONG_INTEGER_DIGITS = 16;

/** One pass over the text, skipping strings (and their escapes); numbers with a fraction or exponent are left. */
export function quoteLongIntegers(text: string): string {
  let out = '';
  let copiedTo = 0;
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // a string: to its closing quote
      i++;
      while (i < text.length && text.charCodeAt(i) !== 0x22) i += text.charCodeAt(i) === 0x5c ? 2 : 1;
      i++;
      continue;
    }
    const isDigit = c >= 0x30 && c <= 0x39;
    if (!isDigit && c !== 0x2d) {
      i++;
      continue;
    }
    let end = i + (c === 0x2d ? 1 : 0);
    while (end < text.length && text.charCodeAt(end) >= 0x30 && text.charCodeAt(end) <= 0x39) end++;
    const digits = end - i - (c === 0x2d ? 1 : 0);
    const next = text[end];
    if (digits >= LONG_INTEGER_DIGITS && next !== '.' && next !== 'e' && next !== 'E') {
      out += `${text.slice(copiedTo, i)}"${text.slice(i, end)}"`;
      copiedTo = end;
    }
    i = Math.max(end, i + 1);
  }
  return copiedTo === 0 ? text : out + text.slice(copiedTo);
}

/** A gid from a type and a numeric id given as a string (never a rounded number). */
export function toGid(type: 'Order' | 'Customer', id: unknown): string | null {
  const digits =
    typeof id === 'string' ? id : typeof id === 'number' && Number.isSafeInteger(id) ? String(id) : null;
  return digits !== null && /^\d+$/.test(digits) ? `gid://shopify/${type}/${digits}` : null;
}
