import { AppError, invalidField } from '../../errors.ts';
import { isShopApiFailure } from '../shop-api-error.ts';
import { readShopSettings, type ShopSettings } from './shop-settings.ts';
import type { PrestaShopWebservice } from './webservice-client.ts';

/** A Webservice key as the back office generates it. */
const KEY_PATTERN = /^[A-Z0-9]{32}$/;

/** The resources the Webservice key must grant: what the poll reads and what statuses back write. */
const REQUIRED_PERMISSIONS =
  'GET on orders, addresses, customers, countries, currencies, products, carriers, order_states, configurations and order_carriers; PUT on order_carriers; POST on order_histories';

/** The same, per resource: what the key is checked for when it is given (REQUIRED_PERMISSIONS says it). */
const REQUIRED: readonly [string, readonly string[]][] = [
  ['orders', ['GET']],
  ['addresses', ['GET']],
  ['customers', ['GET']],
  ['countries', ['GET']],
  ['currencies', ['GET']],
  ['products', ['GET']],
  ['carriers', ['GET']],
  ['order_states', ['GET']],
  ['configurations', ['GET']],
  ['order_carriers', ['GET', 'PUT']],
  ['order_histories', ['POST']],
];

/** The required permissions the key lacks, as `METHOD resource`. */
export function missingPermissions(granted: Map<string, Set<string>>): string[] {
  return REQUIRED.flatMap(([resource, methods]) =>
    methods.filter((m) => !granted.get(resource)?.has(m)).map((m) => `${m} ${resource}`),
  );
}

/** A typed Webservice key, trimmed; null when left blank; refused when it cannot be one. */
export function parseWebserviceKey(raw: unknown): string | null {
  const key = typeof raw === 'string' && raw.trim() !== '' ? raw.trim() : null;
  if (key !== null && !KEY_PATTERN.test(key))
    throw invalidField('key', 'must be the 32-character Webservice key (letters and digits)');
  return key;
}

/**
 * Tries a Webservice key on the shop before anything is stored (linking, or a key added later): its
 * permissions, read from the Webservice's root, must hold every one the bridge uses (otherwise the
 * first poll or status would fail long after the link looked fine), named when some lack; reading
 * one order proves it works; then the shop's settings. Refusals are
 * `key` field errors (the message says which permissions it needs); an unreachable shop is
 * `unavailable`, with the `url` field named so a form can show it there.
 */
export async function checkWebserviceKey(
  ws: PrestaShopWebservice,
  url: string,
  key: string,
): Promise<ShopSettings> {
  try {
    const missing = missingPermissions(await ws.permissions(url, key));
    if (missing.length > 0)
      throw fieldRefusal(
        'key',
        `The Webservice key lacks permissions (${missing.join(', ')}). The key needs: ${REQUIRED_PERMISSIONS}.`,
      );
    await ws.get(url, key, 'orders', { limit: '1' });
    return await readShopSettings(ws, url, key);
  } catch (err) {
    if (isShopApiFailure(err, 'unauthorized'))
      throw fieldRefusal('key', 'The shop refused the Webservice key (not active or mistyped).');
    if (isShopApiFailure(err, 'retry_later'))
      throw new AppError('unavailable', `The shop could not be reached; try again later (${err.message}).`, [
        { field: 'url', message: `could not be reached; try again later (${err.message})` },
      ]);
    if (isShopApiFailure(err, 'request_failed'))
      throw fieldRefusal(
        'key',
        `The shop refused a Webservice call (${err.message}). The key needs: ${REQUIRED_PERMISSIONS}.`,
      );
    throw err;
  }
}

/** An `invalid_request` whose message is a sentence and whose detail names the field it is about. */
export const fieldRefusal = (field: string, message: string) =>
  new AppError('invalid_request', message, [{ field, message }]);
