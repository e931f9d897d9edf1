import type { Connection } from '../connection.ts';
import type { ConnectionsService } from '../connections-service.ts';
import type { WooShopAccess } from './operations.ts';

/** What a WooCommerce link keeps encrypted (CONNECTOR_SECRET_KEY): the key pair and our webhooks' secret. */
export interface WooCredentials {
  consumerKey: string;
  consumerSecret: string;
  webhookSecret: string;
}

export const encodeWooCredentials = (c: WooCredentials) =>
  JSON.stringify({ ck: c.consumerKey, cs: c.consumerSecret, whs: c.webhookSecret });

export function decodeWooCredentials(plain: string): WooCredentials {
  const parsed = JSON.parse(plain) as { ck?: unknown; cs?: unknown; whs?: unknown };
  if (typeof parsed.ck !== 'string' || typeof parsed.cs !== 'string' || typeof parsed.whs !== 'string')
    throw new Error('unreadable WooCommerce credentials');
  return { consumerKey: parsed.ck, consumerSecret: parsed.cs, webhookSecret: parsed.whs };
}

/** The link's store and keys, decrypted for the one call that needs them; null once disconnected. */
export async function wooAccess(
  connections: ConnectionsService,
  connection: Connection,
): Promise<(WooShopAccess & { webhookSecret: string }) | null> {
  const plain = await connections.tokenOf(connection);
  if (plain === null) return null;
  const c = decodeWooCredentials(plain);
  return {
    store: connection.shop,
    keys: { consumerKey: c.consumerKey, consumerSecret: c.consumerSecret },
    webhookSecret: c.webhookSecret,
  };
}
