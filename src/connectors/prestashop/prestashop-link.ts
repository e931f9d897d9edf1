import type { Stores, Transact } from '../../db/stores.ts';
import { prefixedId } from '../../domain/ids.ts';
import { AppError, invalidField } from '../../errors.ts';
import type { DestinationGuard } from '../../infra/http/url-guard.ts';
import type { Connection } from '../connection.ts';
import type { CredentialCipher } from '../credentials.ts';
import { checkWebserviceKey, fieldRefusal, parseWebserviceKey } from './key-check.ts';
import { newShopSecret } from './link-upkeep.ts';
import { sealCredentials } from './shop-credentials.ts';
import { wallClock } from './wall-clock.ts';
import type { PrestaShopWebservice } from './webservice-client.ts';

/** What linking returns once: the secret is never shown again (stored encrypted only). */
export interface PrestaShopLinkResult {
  connection: Connection;
  secret: string;
  pollEnabled: boolean;
}

/**
 * The shop's address as we store and compare it: https (http only with CONNECTORS_ALLOW_INSECURE),
 * no credentials, query or fragment, host lowercased, no trailing slash (PrestaShop may live in a
 * sub-folder: the path is kept).
 */
export function normaliseShopUrl(guard: DestinationGuard, raw: unknown): string {
  if (typeof raw !== 'string' || raw.trim() === '') throw invalidField('url', 'is required');
  const url = guard.validate(raw.trim());
  if (url.search !== '' || url.hash !== '') throw invalidField('url', 'must not have a query or fragment');
  return `${url.protocol}//${url.host.toLowerCase()}${url.pathname.replace(/\/+$/, '')}`;
}

/**
 * Linking a PrestaShop shop to a brand (the operator's `dlv connectors prestashop link`, later the
 * account area's Shops page): the shop's URL must be public; a Webservice key, when given, is tried
 * at once (a key refused or lacking permissions stores nothing) and turns on the poll and statuses
 * back. A per-shop secret is generated for the module to sign its pushes with.
 */
export function prestashopLinking(deps: {
  stores: Pick<Stores, 'connections' | 'brands'>;
  transact: Transact;
  ws: PrestaShopWebservice;
  guard: DestinationGuard;
  cipher: CredentialCipher;
  clock: () => Date;
  /** Null when shop credentials may not be stored (published without CONNECTOR_SECRET_KEY). */
  refusal: string | null;
  onChanged: () => void;
}) {
  const { stores, clock } = deps;

  return {
    async link(input: { brandId: string; url: unknown; key?: unknown }): Promise<PrestaShopLinkResult> {
      if (deps.refusal) throw new AppError('unavailable', deps.refusal);
      const url = normaliseShopUrl(deps.guard, input.url);
      const key = parseWebserviceKey(input.key);
      const brand = await stores.brands.findById(input.brandId);
      if (!brand) throw new AppError('not_found', `No brand with id "${input.brandId}".`);
      const existing = await stores.connections.findByShop('prestashop', url);
      // Said without naming the link: the shop may be another brand's.
      if (existing && existing.status !== 'disconnected')
        throw fieldRefusal('url', `The shop ${url} is already linked; disconnect it first.`);
      await deps.guard.assertPublic(new URL(url));
      const settings = key === null ? null : await checkWebserviceKey(deps.ws, url, key);
      const id = prefixedId('con');
      const secret = newShopSecret();
      const at = clock();
      const connection = await deps.transact(async (tx) => {
        const created = await tx.connections.insert({
          id,
          brandId: brand.id,
          platform: 'prestashop',
          shop: url,
          credentials: await sealCredentials(deps.cipher, id, { secret, key }),
          scopes: key === null ? 'push' : 'push,webservice',
          remoteIds: {},
          at,
        });
        await tx.prestashopShops.insert(
          {
            connectionId: id,
            pollEnabled: key !== null,
            timeZone: settings?.timeZone ?? null,
            // The poll starts from the link: older orders are the brand's to import if it wants them.
            polledThrough: settings ? wallClock(at, settings.timeZone) : null,
            deliveredStateId: settings?.deliveredStateId ?? null,
          },
          at,
        );
        return created;
      });
      deps.onChanged();
      return { connection, secret, pollEnabled: key !== null };
    },
  };
}
