const PLAIN_BEARER = /^Bearer \S+$/;

/**
 * The token of an `Authorization: Bearer <token>` header, for every surface that takes one (API
 * keys, the operator's token, next shop and tool credentials): null when the header is absent, ''
 * when it is present but not a bearer credential (so the caller can call it malformed, not missing).
 */
export function bearerToken(authorization: string | undefined): string | null {
  if (authorization === undefined || authorization === '') return null;
  // The usual form, tested without building a match (this runs on every API request).
  if (PLAIN_BEARER.test(authorization)) return authorization.slice(7);
  return /^Bearer +(\S+) *$/i.exec(authorization)?.[1] ?? '';
}
