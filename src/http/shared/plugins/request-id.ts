import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

// A caller's id is echoed only when it is short and plain, so it can't inject into logs or headers.
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

// Unique without a random draw per request: a random per-process prefix and a counter.
const processPrefix = randomBytes(6).toString('hex');
let counter = 0;

export function generateRequestId(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  if (typeof incoming === 'string' && SANE_REQUEST_ID.test(incoming)) return incoming;
  counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
  return `req_${processPrefix}${counter.toString(16).padStart(12, '0')}`;
}
