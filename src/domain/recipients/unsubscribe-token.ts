import { createHmac, timingSafeEqual } from 'node:crypto';
import { addressKey } from './address-key.ts';
import type { Channel } from './ports.ts';

/** The channel's byte at the token's start. */
const CHANNEL_BYTE: Record<Channel, number> = { email: 1, sms: 2 };
const KEY_BYTES = 32;
const MAC_BYTES = 16;
const TOKEN_BYTES = 1 + KEY_BYTES + MAC_BYTES;

interface UnsubscribeTarget {
  channel: Channel;
  /** The address's digest (address-key.ts): what an opt-out is kept under. */
  key: Buffer;
}

/**
 * The unsubscribe links' token (decision 0007): `base64url(channel | addressKey | MAC)`, the MAC
 * the first 16 bytes of an HMAC-SHA256 under the server secret `unsubscribe_key`. It needs no row
 * (a link works for as long as the secret lives) and shows no address, only its digest.
 */
export interface UnsubscribeTokens {
  tokenFor(channel: Channel, address: string): Promise<string>;
  /** The channel and digest the token names, or null when it is not one of ours (a typo, a forgery). */
  read(token: string): Promise<UnsubscribeTarget | null>;
}

export function unsubscribeTokens(secret: () => Promise<Buffer>): UnsubscribeTokens {
  const mac = async (body: Buffer) =>
    createHmac('sha256', await secret())
      .update(body)
      .digest()
      .subarray(0, MAC_BYTES);

  return {
    async tokenFor(channel: Channel, address: string): Promise<string> {
      const body = Buffer.concat([Buffer.from([CHANNEL_BYTE[channel]]), addressKey(channel, address)]);
      return Buffer.concat([body, await mac(body)]).toString('base64url');
    },

    async read(token: string): Promise<UnsubscribeTarget | null> {
      if (!/^[A-Za-z0-9_-]{66}$/.test(token)) return null;
      const bytes = Buffer.from(token, 'base64url');
      if (bytes.length !== TOKEN_BYTES) return null;
      const channel = (Object.keys(CHANNEL_BYTE) as Channel[]).find((c) => CHANNEL_BYTE[c] === bytes[0]);
      if (!channel) return null;
      const body = bytes.subarray(0, 1 + KEY_BYTES);
      if (!timingSafeEqual(await mac(body), bytes.subarray(1 + KEY_BYTES))) return null;
      return { channel, key: Buffer.from(bytes.subarray(1, 1 + KEY_BYTES)) };
    },
  };
}
