import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Time-based one-time passwords (RFC 6238 over RFC 4226's HOTP) as every authenticator app reads
 * them: HMAC-SHA-1, 6 digits, 30-second steps, the step before and after accepted for clock drift.
 * A few lines on node:crypto rather than a dependency; the RFCs' own test vectors hold them
 * (totp.test.ts).
 */
const TOTP_DIGITS = 6;
const TOTP_PERIOD_SECONDS = 30;
/** Steps accepted either side of the current one: a phone's clock a little off still signs in. */
const DRIFT_STEPS = 1;
/** 160 bits: RFC 4226 §4 recommends a secret as long as the HMAC's output. */
const SECRET_BYTES = 20;

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32 without padding: the form authenticator apps take a secret typed by hand in. */
export function base32Encode(bytes: Uint8Array): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

/** Reads base32 as people copy it: any case, spaces and padding ignored. Throws on another character. */
export function base32Decode(text: string): Buffer {
  const clean = text.replace(/[\s=]/g, '').toUpperCase();
  const out: number[] = [];
  let bits = 0;
  let value = 0;
  for (const char of clean) {
    const index = BASE32.indexOf(char);
    if (index < 0) throw new Error(`not base32: ${JSON.stringify(char)}`);
    value = ((value << 5) | index) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

export const newTotpSecret = (): Buffer => randomBytes(SECRET_BYTES);

/** RFC 4226's HOTP value of `counter`, as a string of `digits` digits (leading zeros kept). */
export function hotp(secret: Uint8Array, counter: number, digits = TOTP_DIGITS): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac('sha1', secret).update(message).digest();
  // Dynamic truncation (RFC 4226 §5.3): four bytes at the offset the last nibble names.
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** digits).padStart(digits, '0');
}

/** The RFC 6238 time step of an instant: whole periods since the Unix epoch. */
export const timeStep = (at: Date, periodSeconds = TOTP_PERIOD_SECONDS): number =>
  Math.floor(at.getTime() / 1000 / periodSeconds);

/** The code an authenticator shows at `at`. */
export function totpAt(secret: Uint8Array, at: Date, digits = TOTP_DIGITS): string {
  return hotp(secret, timeStep(at), digits);
}

/**
 * The step `code` was made for, if it is one of the steps around `at` and later than `lastStep`
 * (a code is accepted once: the caller stores the step it accepted); null otherwise. Every
 * candidate is compared in constant time.
 */
export function matchingStep(
  secret: Uint8Array,
  code: string,
  at: Date,
  lastStep: number | null,
): number | null {
  const given = code.replace(/\s/g, '');
  if (!/^[0-9]{6}$/.test(given)) return null;
  const current = timeStep(at);
  let found: number | null = null;
  for (let step = current - DRIFT_STEPS; step <= current + DRIFT_STEPS; step++) {
    const equal = timingSafeEqual(Buffer.from(hotp(secret, step)), Buffer.from(given));
    if (equal && found === null && (lastStep === null || step > lastStep)) found = step;
  }
  return found;
}

/**
 * The `otpauth://totp/…` URI an authenticator app reads from the QR code (Google Authenticator's
 * Key Uri Format): the issuer names the service, the account names the person.
 */
export function otpauthUri(input: { issuer: string; account: string; secret: Uint8Array }): string {
  const label = `${encodeURIComponent(input.issuer)}:${encodeURIComponent(input.account)}`;
  const query = new URLSearchParams({
    secret: base32Encode(input.secret),
    issuer: input.issuer,
    algorithm: 'SHA1',
    digits: String(TOTP_DIGITS),
    period: String(TOTP_PERIOD_SECONDS),
  });
  return `otpauth://totp/${label}?${query.toString().replace(/\+/g, '%20')}`;
}
