import { createHash, createHmac } from 'node:crypto';
import type { Channel } from './ports.ts';

/**
 * The SHA-256 of the address as every brand would write it (an e-mail lower-cased whole, a number
 * in E.164 as orders store it), so one "stop" covers them all. Unkeyed, so anyone can compute it
 * from a guessed address: it is never stored nor put in a link any more (migration 0040), only
 * keyed by `AddressKeys`; the opt-outs and links made before that still carry it.
 */
export function addressDigest(channel: Channel, address: string): Buffer {
  const normalised = channel === 'email' ? address.trim().toLowerCase() : address.replace(/[\s.-]/g, '');
  return createHash('sha256').update(`${channel}:${normalised}`).digest();
}

/**
 * What an opt-out is kept under and an unsubscribe link names: HMAC-SHA256 under the opt-out key
 * (OPT_OUT_KEY) of the address's digest. Keyed over the digest rather than the address so that the
 * rows and links made before the key (which hold only the digest) are keyed without their address.
 */
export function keyedAddressKey(key: Buffer, digest: Buffer): Buffer {
  return createHmac('sha256', key).update(digest).digest();
}

export interface AddressKeys {
  /** The keyed digest of an address (what the opt-out list holds). */
  of(channel: Channel, address: string): Promise<Buffer>;
  /** The keyed digest of an unkeyed one (an opt-out row or a link made before the key). */
  ofDigest(digest: Buffer): Promise<Buffer>;
}

export function addressKeys(key: () => Promise<Buffer>): AddressKeys {
  return {
    of: async (channel, address) => keyedAddressKey(await key(), addressDigest(channel, address)),
    ofDigest: async (digest) => keyedAddressKey(await key(), digest),
  };
}
