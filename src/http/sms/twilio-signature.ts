import { createHmac } from 'node:crypto';
import { safeEqual } from '../../connectors/signatures.ts';

/** A form's fields as received, each name with its values in the order sent. */
export type FormParams = ReadonlyMap<string, readonly string[]>;

export function formParams(text: string): FormParams {
  const params = new Map<string, string[]>();
  for (const [name, value] of new URLSearchParams(text)) {
    const values = params.get(name);
    if (values) values.push(value);
    else params.set(name, [value]);
  }
  return params;
}

/**
 * X-Twilio-Signature as Twilio documents it (twilio.com/docs/usage/security#validating-requests):
 * the full URL Twilio requested, then each POST field's name and value, names sorted (a name sent
 * twice: its distinct values sorted), HMAC-SHA1 keyed with the auth token, base64.
 */
function twilioSignature(authToken: string, url: string, params: FormParams): string {
  let data = url;
  for (const name of [...params.keys()].sort()) {
    for (const value of [...new Set(params.get(name))].sort()) data += name + value;
  }
  return createHmac('sha1', authToken).update(data, 'utf8').digest('base64');
}

/**
 * Whether `signature` is Twilio's for that request. Twilio signs the URL as configured in the
 * console or the StatusCallback we gave: with the scheme's default port or without it depending
 * on its side, so both forms are tried, as its own libraries do. Compared in constant time.
 */
export function isTwilioSignature(
  authToken: string,
  signature: string | undefined,
  url: string,
  params: FormParams,
): boolean {
  if (signature === undefined || signature === '') return false;
  return urlForms(url).some((candidate) =>
    safeEqual(signature, twilioSignature(authToken, candidate, params)),
  );
}

function urlForms(url: string): string[] {
  const match = /^(https?):\/\/([^/?#]*)(.*)$/i.exec(url);
  if (!match) return [url];
  const [, scheme, authority, rest] = match as unknown as [string, string, string, string];
  const defaultPort = scheme.toLowerCase() === 'https' ? '443' : '80';
  const host = authority.replace(/:\d+$/, '');
  const port = authority.slice(host.length + 1);
  if (port !== '' && port !== defaultPort) return [url];
  return [`${scheme}://${host}${rest}`, `${scheme}://${host}:${defaultPort}${rest}`];
}
