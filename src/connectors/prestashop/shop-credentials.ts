import type { Stores } from '../../db/stores.ts';
import type { CredentialCipher } from '../credentials.ts';

/**
 * A PrestaShop link's two secrets, sealed together in the connection's credentials (AES-256-GCM,
 * CONNECTOR_SECRET_KEY, bound to the connection id): the secret the module signs its pushes with, and
 * the shop's Webservice key (absent when the brand gave none: no poll, no statuses back).
 */
export interface PrestaShopCredentials {
  secret: string;
  key: string | null;
}

export const sealCredentials = (cipher: CredentialCipher, connectionId: string, c: PrestaShopCredentials) =>
  cipher.encrypt(JSON.stringify({ secret: c.secret, key: c.key }), connectionId);

/** Sealed credentials opened; null when unreadable (another CONNECTOR_SECRET_KEY, or altered). */
export async function openSealed(
  cipher: CredentialCipher,
  connectionId: string,
  sealed: Buffer,
): Promise<PrestaShopCredentials | null> {
  try {
    const parsed = JSON.parse(await cipher.decrypt(sealed, connectionId)) as Partial<PrestaShopCredentials>;
    if (typeof parsed.secret !== 'string' || parsed.secret === '') return null;
    return { secret: parsed.secret, key: typeof parsed.key === 'string' ? parsed.key : null };
  } catch {
    return null;
  }
}

/** The link's credentials, or null once disconnected (erased) or unreadable (another key). */
export async function openCredentials(
  stores: Pick<Stores, 'connections'>,
  cipher: CredentialCipher,
  connectionId: string,
): Promise<PrestaShopCredentials | null> {
  const sealed = await stores.connections.credentialsOf(connectionId);
  return sealed ? openSealed(cipher, connectionId, sealed) : null;
}
