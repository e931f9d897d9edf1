import { createHmac } from 'node:crypto';

/**
 * What Twilio puts in X-Twilio-Signature of each request it makes (twilio.com/docs/usage/security):
 * the URL as configured, then every POST field name immediately followed by its value, sorted by
 * name; HMAC-SHA1 with the account's auth token; base64. Written here from the documentation, apart
 * from the service's own verifier, so each checks the other (and both are checked against the
 * official `twilio` library in the tests).
 */
export function signTwilioRequest(authToken: string, url: string, fields: Record<string, string>): string {
  const names = Object.keys(fields).sort();
  const data = url + names.map((name) => `${name}${fields[name]}`).join('');
  return createHmac('sha1', authToken).update(Buffer.from(data, 'utf8')).digest('base64');
}
