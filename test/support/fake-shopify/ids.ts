import { randomInt } from 'node:crypto';

/**
 * Shopify's REST/webhook ids are 64-bit integers written as bare JSON numbers. The documented samples
 * use 18-digit ids (e.g. 820982911946154508), above 2^53, which JSON.parse silently rounds. The fake
 * keeps every id as a bigint and writes it into the raw JSON text digit for digit, as Shopify does.
 *
 * Ids start above 2^60 and are odd, so no id is exactly representable as a double: a consumer that
 * goes through JSON.parse always gets a different number, and a test can prove it.
 */
const BASE = 2n ** 60n + BigInt(randomInt(0, 2 ** 47)) * 2n;
let sequence = 0n;

export function nextBigId(): bigint {
  sequence += 2n;
  return BASE + sequence + 1n;
}

/** Small sequential ids for things Shopify numbers below 2^53 (shops, data requests). */
let small = 548_380_000;
export function nextSmallId(): number {
  return ++small;
}

export function gid(type: string, id: bigint | number | string): string {
  return `gid://shopify/${type}/${id}`;
}

/** The numeric part of a gid, or undefined when `value` is not a Shopify gid of `type`. */
export function gidNumber(value: unknown, type?: string): string | undefined {
  if (typeof value !== 'string') return undefined;
  const match = /^gid:\/\/shopify\/(\w+)\/(\d+)$/.exec(value);
  if (!match || (type && match[1] !== type)) return undefined;
  return match[2];
}

// JSON.stringify cannot write a bigint as a number: the payload builders put a marker string in
// its place and renderRawJson() swaps each marker for the bare digits.
const MARKER = /"@@bigint:(\d+)@@"/g;

/** A placeholder that renderRawJson() writes as the bare integer `id`. */
export function rawInt(id: bigint): string {
  return `@@bigint:${id}@@`;
}

/** Compact JSON (as Shopify sends it) with every rawInt() marker written as a JSON number. */
export function renderRawJson(value: unknown): string {
  return JSON.stringify(value).replace(MARKER, '$1');
}
