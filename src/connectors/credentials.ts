import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Shops' credentials (access tokens, consumer keys) encrypted at rest with AES-256-GCM: what the
 * database holds is useless without CONNECTOR_SECRET_KEY, which lives in the environment only. The
 * connection id is bound as associated data, so a ciphertext copied onto another connection's row
 * does not decrypt. Stored as `version (1 byte) | iv (12) | tag (16) | ciphertext`.
 */
export function credentialCipher(loadKey: () => Promise<Buffer>) {
  let key: Promise<Buffer> | null = null;
  const keyNow = () => {
    key ??= loadKey().then((k) => {
      if (k.length !== 32) throw new Error('the connector key must be 32 bytes');
      return k;
    });
    key.catch(() => {
      key = null; // the database (development key) may answer next time
    });
    return key;
  };
  return {
    async encrypt(plain: string, connectionId: string): Promise<Buffer> {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', await keyNow(), iv);
      cipher.setAAD(Buffer.from(connectionId, 'utf8'));
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return Buffer.concat([Buffer.from([VERSION]), iv, cipher.getAuthTag(), body]);
    },
    /** Throws when the key is not the one that encrypted it, or the bytes were altered. */
    async decrypt(sealed: Buffer, connectionId: string): Promise<string> {
      if (sealed[0] !== VERSION || sealed.length < 1 + IV_BYTES + TAG_BYTES)
        throw new Error('unknown credential format');
      const iv = sealed.subarray(1, 1 + IV_BYTES);
      const tag = sealed.subarray(1 + IV_BYTES, 1 + IV_BYTES + TAG_BYTES);
      const decipher = createDecipheriv('aes-256-gcm', await keyNow(), iv);
      decipher.setAAD(Buffer.from(connectionId, 'utf8'));
      decipher.setAuthTag(tag);
      return Buffer.concat([
        decipher.update(sealed.subarray(1 + IV_BYTES + TAG_BYTES)),
        decipher.final(),
      ]).toString('utf8');
    },
  };
}

export type CredentialCipher = ReturnType<typeof credentialCipher>;
