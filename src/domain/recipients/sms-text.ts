/**
 * How long an SMS is, as the network counts it (3GPP TS 23.038): a text made only of the GSM 7-bit
 * alphabet travels as septets (160 in one message, 153 per part once split, the extension table's
 * characters counting two); one other character and the whole text goes as UCS-2 (70, then 67 per
 * part, counted in UTF-16 units). Every part is billed, so a notification is written to fit one
 * GSM-7 message where it can.
 */

/** The GSM 03.38 default alphabet (each one septet; ESC, 0x1b, is not a character of its own). */
const GSM7_BASIC = new Set(
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà',
);
/** The extension table: ESC and the character, two septets each. */
const GSM7_EXTENSION = new Set('^{}\\[~]|€\f');

/** Characters a French or English text carries that GSM-7 lacks, and their nearest in it. */
const GSM7_NEAREST: Record<string, string> = {
  '’': "'",
  '‘': "'",
  '‚': "'",
  '“': '"',
  '”': '"',
  '„': '"',
  '«': '"',
  '»': '"',
  '–': '-',
  '—': '-',
  '‐': '-',
  '…': '...',
  '\u00a0': ' ',
  '\u202f': ' ',
  '\u2009': ' ',
  '\t': ' ',
  â: 'a',
  ê: 'e',
  ë: 'e',
  î: 'i',
  ï: 'i',
  ô: 'o',
  û: 'u',
  ÿ: 'y',
  ç: 'c',
  À: 'A',
  Â: 'A',
  È: 'E',
  Ê: 'E',
  Ë: 'E',
  Î: 'I',
  Ï: 'I',
  Ô: 'O',
  Û: 'U',
  Ù: 'U',
  Œ: 'OE',
  œ: 'oe',
  á: 'a',
  í: 'i',
  ó: 'o',
  ú: 'u',
};

export const SMS_SINGLE_GSM7 = 160;
const SMS_PART_GSM7 = 153;
const SMS_SINGLE_UCS2 = 70;
const SMS_PART_UCS2 = 67;

export interface SmsMeasure {
  encoding: 'gsm7' | 'ucs2';
  /** Septets (GSM-7) or UTF-16 code units (UCS-2). */
  units: number;
  /** Messages the network sends (and bills) for it. */
  parts: number;
}

/** Septets of `text` in GSM-7, or null when a character is not in the alphabet (UCS-2 then). */
export function gsm7Septets(text: string): number | null {
  let septets = 0;
  for (const char of text) {
    if (GSM7_BASIC.has(char)) septets += 1;
    else if (GSM7_EXTENSION.has(char)) septets += 2;
    else return null;
  }
  return septets;
}

/** How the network sends `text`: encoding, length in its units, and the parts it makes. */
export function measureSms(text: string): SmsMeasure {
  const septets = gsm7Septets(text);
  if (septets !== null) {
    return {
      encoding: 'gsm7',
      units: septets,
      parts: septets <= SMS_SINGLE_GSM7 ? 1 : Math.ceil(septets / SMS_PART_GSM7),
    };
  }
  // UCS-2 counts UTF-16 units: a character outside the BMP (an emoji) takes two.
  const units = text.length;
  return { encoding: 'ucs2', units, parts: units <= SMS_SINGLE_UCS2 ? 1 : Math.ceil(units / SMS_PART_UCS2) };
}

/**
 * A colon as each language writes it in our texts: French puts a space before it (a plain one:
 * GSM-7 has no narrow no-break space), English none. Every SMS follows it, the wording's colons too.
 */
const smsColon = (locale: 'fr' | 'en'): string => (locale === 'fr' ? ' : ' : ': ');

/**
 * `text` with the typographic characters GSM-7 lacks replaced by their plain forms (curly quotes,
 * dashes, circumflexes, ç…), so one apostrophe does not send the whole text as UCS-2 at less than
 * half the length. What has no plain form (another script, an emoji) is kept: UCS-2 then carries it.
 */
export function toGsm7(text: string): string {
  let out = '';
  for (const char of text)
    out += GSM7_BASIC.has(char) || GSM7_EXTENSION.has(char) ? char : (GSM7_NEAREST[char] ?? char);
  return out;
}

/**
 * The SMS of a notification: the brand's name first (the reader sees whose parcel it is before
 * anything), the message, the link last (a phone makes it tappable). When the whole does not fit
 * one GSM-7 message, the brand's name is shortened (never below 12 characters) before the text
 * is let go to two parts: the link is never cut. The colon after the name is spaced as the
 * message's own ones are: ` : ` in French, `: ` in English (`smsColon`).
 */
export function composeSms(parts: {
  brand: string;
  message: string;
  link: string | null;
  locale: 'fr' | 'en';
}): string {
  const message = toGsm7(parts.message.trim());
  const link = parts.link ? ` ${parts.link}` : '';
  const brand = toGsm7(parts.brand.trim().replace(/\s+/g, ' '));
  const build = (name: string) => `${name}${smsColon(parts.locale)}${message}${link}`;
  const full = build(brand);
  if (measureSms(full).parts === 1) return full;
  const spare = SMS_SINGLE_GSM7 - measureSms(build('')).units;
  const room = Math.max(12, spare);
  if (room >= brand.length) return full;
  return build(
    `${[...brand]
      .slice(0, room - 1)
      .join('')
      .trimEnd()}.`,
  );
}
