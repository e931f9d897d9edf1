import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Platform } from '../src/connectors/connection.ts';
import { credentialCipher } from '../src/connectors/credentials.ts';
import { storesOn } from '../src/db/stores.ts';
import { prefixedId } from '../src/domain/ids.ts';
import { buildTestApp, createBrandWithKey, type TestApp, type TestBrand } from './support/app.ts';
import { CONNECTOR_KEY } from './support/shopify.ts';

/** A link's extra shop statuses: a setting of the platforms that have one (the Connector's `extraStatuses`). */
let t: TestApp;
let brand: TestBrand;

beforeAll(async () => {
  t = await buildTestApp();
  brand = await createBrandWithKey(t.deps);
});
afterAll(() => t?.close());

async function link(platform: Platform) {
  const id = prefixedId('con');
  await storesOn(t.pool).connections.insert({
    id,
    brandId: brand.brandId,
    platform,
    shop: `https://${platform}-${id}.example`,
    credentials: await credentialCipher(async () => CONNECTOR_KEY).encrypt('secret', id),
    scopes: '',
    remoteIds: {},
    at: new Date(),
  });
  return id;
}

describe('extra statuses', () => {
  it('are those the platform allows, on its links only', async () => {
    const woo = await link('woocommerce');
    const saved = await t.deps.connections.updateSettings(brand.brandId, woo, { extraStatuses: ['on-hold'] });
    expect(saved.extraStatuses).toEqual(['on-hold']);
    await expect(
      t.deps.connections.updateSettings(brand.brandId, woo, { extraStatuses: ['cancelled'] }),
    ).rejects.toMatchObject({
      details: [{ field: 'extra_statuses', message: 'must be among on-hold, pending (not cancelled)' }],
    });
    const ps = await link('prestashop');
    await expect(
      t.deps.connections.updateSettings(brand.brandId, ps, { extraStatuses: ['on-hold'] }),
    ).rejects.toMatchObject({
      details: [{ field: 'extra_statuses', message: 'only WooCommerce links take extra statuses' }],
    });
    expect((await t.deps.connections.get(brand.brandId, ps)).extraStatuses).toEqual([]);
  });
});
