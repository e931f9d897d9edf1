import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Operators' TOTP secrets sealed at rest with AES-256-GCM, as the recipients' instructions and the
 * shops' credentials are: the database holds nothing that computes a code without OPERATOR_TOTP_KEY
 * (or the key kept in server_secrets). The operator id is the associated data, so a secret copied
 * onto another operator's row does not open. Stored as `version (1) | iv (12) | tag (16) | ciphertext`.
 */
export interface TotpSealer {
  seal(secret: Buffer, operatorId: string): Promise<Buffer>;
  /** Throws when the key is not the one that sealed it, the bytes were altered or the operator differs. */
  open(sealed: Buffer, operatorId: string): Promise<Buffer>;
}

export function totpSealer(loadKey: () => Promise<Buffer>): TotpSealer {
  let key: Promise<Buffer> | null = null;
  const keyNow = () => {
    key ??= loadKey().then((k) => {
      if (k.length !== 32) throw new Error('the operator TOTP key must be 32 bytes');
      return k;
    });
    key.catch(() => {
      key = null; // the database (generated key) may answer next time
    });
    return key;
  };
  const aad = (operatorId: string) => Buffer.from(`operator_totp:${operatorId}`, 'utf8');
  return {
    async seal(secret, operatorId) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', await keyNow(), iv).setAAD(aad(operatorId));
      const body = Buffer.concat([cipher.update(secret), cipher.final()]);
      return Buffer.concat([Buffer.from([VERSION]), iv, cipher.getAuthTag(), body]);
    },
    async open(sealed, operatorId) {
      if (sealed[0] !== VERSION || sealed.length < 1 + IV_BYTES + TAG_BYTES)
        throw new Error('unknown sealed TOTP secret format');
      const decipher = createDecipheriv('aes-256-gcm', await keyNow(), sealed.subarray(1, 1 + IV_BYTES))
        .setAAD(aad(operatorId))
        .setAuthTag(sealed.subarray(1 + IV_BYTES, 1 + IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(sealed.subarray(1 + IV_BYTES + TAG_BYTES)), decipher.final()]);
    },
  };
}
