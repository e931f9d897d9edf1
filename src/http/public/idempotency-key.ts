import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { invalidField } from '../../errors.ts';
import { principalOf } from '../shared/plugins/auth.ts';
import type { IdempotencyScope } from './idempotent-requests.ts';

const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

/** The header's value, or null when absent; 400 when empty, too long or not printable ASCII. */
export function parseIdempotencyKey(header: string | string[] | undefined): string | null {
  if (header === undefined) return null;
  const value = Array.isArray(header) ? header[0] : header;
  if (
    value === undefined ||
    value.length === 0 ||
    value.length > MAX_IDEMPOTENCY_KEY_LENGTH ||
    !/^[\x21-\x7e]+$/.test(value)
  ) {
    throw invalidField(
      'Idempotency-Key',
      `must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} printable ASCII characters without spaces`,
    );
  }
  return value;
}

/** JSON with object keys sorted, so `{"a":1,"b":2}` and `{"b":2,"a":1}` are the same request. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Fingerprint of what was asked: the operation and its body. */
export function requestFingerprint(operation: string, body: unknown): Buffer {
  return createHash('sha256')
    .update(operation)
    .update('\u0000')
    .update(canonicalJson(body ?? null))
    .digest();
}

/**
 * A write's Idempotency-Key scope: the calling brand, the key (400 when malformed), and what was
 * asked: the operation and `asked` (its path parameters and body), compared only when a key is
 * given. Every POST and PATCH of the public API but the quote (`POST /rates`, a read) takes one.
 */
export function idempotencyScope(
  request: FastifyRequest,
  operation: string,
  asked: unknown,
): IdempotencyScope {
  return {
    brandId: principalOf(request).brand.id,
    key: parseIdempotencyKey(request.headers['idempotency-key']),
    fingerprint: () => requestFingerprint(operation, asked),
  };
}

/** Says that an answer is the stored one of an earlier request with the same key. */
export function markReplayed(reply: FastifyReply, result: { replayed: boolean }): void {
  if (result.replayed) reply.header('idempotent-replayed', 'true');
}
