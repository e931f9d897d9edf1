import { createHmac, timingSafeEqual } from 'node:crypto';
import type { AddressKeys } from './address-key.ts';
import type { Channel } from './ports.ts';

/**
 * The channel's byte at the token's start. Links made before migration 0040 carry the address's
 * unkeyed digest under the first bytes and still work (they are in people's mailboxes): their
 * digest is keyed when read. New links carry the keyed one, under the second.
 */
const UNKEYED_BYTE: Record<Channel, number> = { email: 1, sms: 2 };
const KEYED_BYTE: Record<Channel, number> = { email: 17, sms: 18 };
const KEY_BYTES = 32;
const MAC_BYTES = 16;
const TOKEN_BYTES = 1 + KEY_BYTES + MAC_BYTES;

interface UnsubscribeTarget {
  channel: Channel;
  /** The address's keyed digest (address-key.ts): what an opt-out is kept under. */
  key: Buffer;
}

/**
 * The unsubscribe links' token (decision 0007): `base64url(channel | keyed address digest | MAC)`,
 * the MAC the first 16 bytes of an HMAC-SHA256 under the server secret `unsubscribe_key`. It needs
 * no row (a link works for as long as the secrets live) and shows no address; its digest is keyed
 * (OPT_OUT_KEY), so a link cannot confirm a guessed address either.
 */
export interface UnsubscribeTokens {
  tokenFor(channel: Channel, address: string): Promise<string>;
  /** The channel and keyed digest the token names, or null when it is not one of ours (a typo, a forgery). */
  read(token: string): Promise<UnsubscribeTarget | null>;
}

export function unsubscribeTokens(secret: () => Promise<Buffer>, keys: AddressKeys): UnsubscribeTokens {
  const mac = async (body: Buffer) =>
    createHmac('sha256', await secret())
      .update(body)
      .digest()
      .subarray(0, MAC_BYTES);
  const channelOf = (byte: number, bytes: Record<Channel, number>) =>
    (Object.keys(bytes) as Channel[]).find((c) => bytes[c] === byte);

  return {
    async tokenFor(channel: Channel, address: string): Promise<string> {
      const body = Buffer.concat([Buffer.from([KEYED_BYTE[channel]]), await keys.of(channel, address)]);
      return Buffer.concat([body, await mac(body)]).toString('base64url');
    },

    async read(token: string): Promise<UnsubscribeTarget | null> {
      if (!/^[A-Za-z0-9_-]{66}$/.test(token)) return null;
      const bytes = Buffer.from(token, 'base64url');
      if (bytes.length !== TOKEN_BYTES) return null;
      const keyed = channelOf(bytes[0]!, KEYED_BYTE);
      const channel = keyed ?? channelOf(bytes[0]!, UNKEYED_BYTE);
      if (!channel) return null;
      const body = bytes.subarray(0, 1 + KEY_BYTES);
      if (!timingSafeEqual(await mac(body), bytes.subarray(1 + KEY_BYTES))) return null;
      const digest = Buffer.from(bytes.subarray(1, 1 + KEY_BYTES));
      return { channel, key: keyed ? digest : await keys.ofDigest(digest) };
    },
  };
}
