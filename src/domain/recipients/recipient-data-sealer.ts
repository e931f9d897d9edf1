import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * The recipient's words for the courier (door code, where to leave the parcel) sealed at rest with
 * AES-256-GCM: the database holds nothing readable without RECIPIENT_DATA_KEY (or the key kept in
 * server_secrets). The order id is the associated data, so a value copied onto another order's row
 * does not open. Stored as `version (1) | iv (12) | tag (16) | ciphertext`.
 */
export interface RecipientDataSealer {
  seal(plain: string, orderId: number | string): Promise<Buffer>;
  /** Throws when the key is not the one that sealed it, the bytes were altered or the order differs. */
  open(sealed: Buffer, orderId: number | string): Promise<string>;
}

export function recipientDataSealer(loadKey: () => Promise<Buffer>): RecipientDataSealer {
  let key: Promise<Buffer> | null = null;
  const keyNow = () => {
    key ??= loadKey().then((k) => {
      if (k.length !== 32) throw new Error('the recipient data key must be 32 bytes');
      return k;
    });
    key.catch(() => {
      key = null; // the database (generated key) may answer next time
    });
    return key;
  };
  const aad = (orderId: number | string) => Buffer.from(`recipient_choices:${orderId}`, 'utf8');
  return {
    async seal(plain, orderId) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', await keyNow(), iv).setAAD(aad(orderId));
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return Buffer.concat([Buffer.from([VERSION]), iv, cipher.getAuthTag(), body]);
    },
    async open(sealed, orderId) {
      if (sealed[0] !== VERSION || sealed.length < 1 + IV_BYTES + TAG_BYTES)
        throw new Error('unknown sealed recipient data format');
      const decipher = createDecipheriv('aes-256-gcm', await keyNow(), sealed.subarray(1, 1 + IV_BYTES))
        .setAAD(aad(orderId))
        .setAuthTag(sealed.subarray(1 + IV_BYTES, 1 + IV_BYTES + TAG_BYTES));
      return Buffer.concat([
        decipher.update(sealed.subarray(1 + IV_BYTES + TAG_BYTES)),
        decipher.final(),
      ]).toString('utf8');
    },
  };
}
