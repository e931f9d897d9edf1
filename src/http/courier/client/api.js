// The courier JSON API (docs/decisions/0006), called with the session cookie. Changes carry the
// session's CSRF token, which `/me` gives.

const API = '/courier/api/v1';

/** The server said the session is gone (401): the app sends the courier to sign in. */
export class SignedOut extends Error {}
/** The server answered with an error (4xx/5xx other than 401): `status`, `code`, `message`. */
export class Refused extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

let csrfToken = null;
export const setCsrfToken = (token) => {
  csrfToken = token;
};

async function call(path, init = {}) {
  // A network failure throws a TypeError here: the caller keeps its work and retries later.
  const response = await fetch(`${API}${path}`, {
    credentials: 'same-origin',
    cache: 'no-store',
    ...init,
    headers: { accept: 'application/json', ...(init.headers || {}) },
  });
  if (response.status === 401) throw new SignedOut('signed out');
  const body = await response.json().catch(() => null);
  if (!response.ok) {
    throw new Refused(response.status, body?.error ?? 'error', body?.message ?? `HTTP ${response.status}`);
  }
  return body;
}

/** `{ courier: { id, name, locale }, csrf_token }` */
export async function me() {
  const body = await call('/me');
  setCsrfToken(body.csrf_token);
  return body;
}

/** `{ date, rounds: [{ id, name, sort_codes, stops }] }` */
export const day = () => call('/day');

/** Sends plain scans in one request: `{ results: [{ id, result, tracking_ref, status, problem }] }`. */
export const postScans = (scans) =>
  call('/scans', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-csrf-token': csrfToken ?? '' },
    body: JSON.stringify({ scans }),
  });

/** Sends a door scan with its files (multipart): one result object. */
export function postDelivery(scan, files = {}) {
  const form = new FormData();
  form.append('scan', JSON.stringify(scan));
  if (files.photo) form.append('photo', files.photo, 'photo.jpg');
  if (files.signature) form.append('signature', files.signature, 'signature.png');
  return call('/deliveries', { method: 'POST', headers: { 'x-csrf-token': csrfToken ?? '' }, body: form });
}

/** `{ sharing, since }`: whether the courier shares their position during rounds. */
export const positionSharing = () => call('/position-sharing');

export const setPositionSharing = (sharing) =>
  call('/position-sharing', {
    method: 'PUT',
    headers: { 'content-type': 'application/json', 'x-csrf-token': csrfToken ?? '' },
    body: JSON.stringify({ sharing }),
  });

/** `{ accepted }` (or `{ accepted: false, reason }`: not sharing, no round in progress, too soon). */
export const postPosition = (position) =>
  call('/position', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-csrf-token': csrfToken ?? '' },
    body: JSON.stringify(position),
  });
