import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBrandWithKey } from './support/app.ts';
import { runDlv } from './support/run-cli.ts';
import { buildScratchTestApp, type ScratchTestApp } from './support/scratch-database.ts';
import {
  CONNECTOR_KEY,
  linkShop,
  newShop,
  paidOrderPayload,
  SHOPIFY_KEY,
  SHOPIFY_SECRET,
  sendWebhook,
  shopifyConfig,
} from './support/shopify.ts';

/** `dlv connectors …`, and what the database keeps of a shop's token. */
let t: ScratchTestApp;
let env: Record<string, string>;

beforeAll(async () => {
  t = await buildScratchTestApp({ config: shopifyConfig() });
  env = {
    DATABASE_URL: t.databaseUrl,
    PUBLIC_BASE_URL: 'http://127.0.0.1:3000',
    SHOPIFY_API_KEY: SHOPIFY_KEY,
    SHOPIFY_API_SECRET: SHOPIFY_SECRET,
    CONNECTOR_SECRET_KEY: CONNECTOR_KEY.toString('hex'),
    // No Shopify here: every call to a shop is refused at once (a loopback origin, allowed as in
    // local development).
    SHOPIFY_ADMIN_ORIGIN_TEMPLATE: 'http://127.0.0.1:9/{shop}',
    CONNECTORS_ALLOW_INSECURE: '1',
  };
});
afterAll(async () => {
  await t?.close();
});

const json = (stdout: string) => JSON.parse(stdout) as Record<string, any>;

describe('dlv connectors', () => {
  it('list, show and problems show each link with its health and what could not be synced', async () => {
    const brand = await createBrandWithKey(t.deps);
    const connection = await linkShop(t.deps, brand.brandId);
    const outOfZone = paidOrderPayload({ zip: '13001' });
    await sendWebhook(t.app, {
      shop: connection.shop,
      topic: 'orders/paid',
      body: outOfZone.text,
      webhookId: 'cli-1',
    });
    const { rows } = await t.pool.query("SELECT id FROM connector_inbox WHERE delivery_id = 'cli-1'");
    await t.deps.shopify!.inbox.process(rows[0].id);

    const list = await runDlv(['connectors', 'list', '--brand', brand.brandId, '--json'], env);
    expect(list.code, list.stderr).toBe(0);
    expect(json(list.stdout).connections).toEqual([
      expect.objectContaining({ id: connection.id, shop: connection.shop, status: 'active', problems: 1 }),
    ]);
    const human = await runDlv(['connectors', 'list'], env);
    expect(human.stdout).toContain(connection.shop);

    const problems = await runDlv(['connectors', 'problems', '--brand', brand.brandId, '--json'], env);
    expect(json(problems.stdout).problems).toEqual([
      expect.objectContaining({
        kind: 'out_of_zone',
        external_id: outOfZone.gid,
        external_name: outOfZone.name,
      }),
    ]);
    const show = await runDlv(['connectors', 'show', connection.id], env);
    expect(show.code).toBe(0);
    expect(show.stdout).toContain('out_of_zone');
    expect(show.stdout).not.toMatch(/shpat_/);
  });

  it('settings and disconnect; disconnecting erases the token', async () => {
    const brand = await createBrandWithKey(t.deps);
    const connection = await linkShop(t.deps, brand.brandId);
    const settings = await runDlv(
      ['connectors', 'settings', connection.id, '--orders', 'all', '--notify', 'no', '--json'],
      env,
    );
    expect(json(settings.stdout)).toMatchObject({ order_filter: 'all', notify_customer: false });
    const off = await runDlv(['connectors', 'disconnect', connection.id, '--json'], env);
    expect(off.code, off.stderr).toBe(0);
    expect(json(off.stdout)).toMatchObject({ status: 'disconnected' });
    const { rows } = await t.pool.query('SELECT credentials FROM connector_connections WHERE id = $1', [
      connection.id,
    ]);
    expect(rows[0].credentials).toBeNull();
    expect((await runDlv(['connectors', 'show', 'con_0000000000000000'], env)).code).toBe(1);
  });

  it('link: checks the shop and brand first, and stores nothing when Shopify cannot be reached', async () => {
    const brand = await createBrandWithKey(t.deps);
    const badShop = await runDlv(
      ['connectors', 'shopify', 'link', '--brand', brand.brandId, '--shop', 'evil.com', '--token', 't'],
      env,
    );
    expect(badShop.code).toBe(1);
    expect(badShop.stderr).toMatch(/myshopify\.com/);
    const noBrand = await runDlv(
      [
        'connectors',
        'shopify',
        'link',
        '--brand',
        'brd_0000000000000000',
        '--shop',
        newShop(),
        '--token',
        't',
      ],
      env,
    );
    expect(noBrand.stderr).toMatch(/No brand/);
    const shop = newShop();
    const down = await runDlv(
      ['connectors', 'shopify', 'link', '--brand', brand.brandId, '--shop', shop, '--token', 'shpat_x'],
      env,
    );
    expect(down.code).toBe(1);
    expect(down.stderr).toMatch(/Shopify could not be reached/);
    const { rows } = await t.pool.query(
      'SELECT count(*)::int AS n FROM connector_connections WHERE shop = $1',
      [shop],
    );
    expect(rows[0].n).toBe(0);
    const missing = await runDlv(['connectors', 'shopify', 'link', '--brand', brand.brandId], env);
    expect(missing.code).toBe(2);
  });

  it('link says the connector is off without SHOPIFY_API_KEY', async () => {
    const res = await runDlv(
      ['connectors', 'shopify', 'link', '--brand', 'b', '--shop', newShop(), '--token', 't'],
      { DATABASE_URL: t.databaseUrl, PUBLIC_BASE_URL: 'http://127.0.0.1:3000' },
    );
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/SHOPIFY_API_KEY/);
  });
});

describe('shop tokens at rest', () => {
  it('are stored encrypted: not in the row, nor anywhere in the connector tables', async () => {
    const brand = await createBrandWithKey(t.deps);
    const token = `shpat_${'9f'.repeat(16)}`;
    const connection = await linkShop(t.deps, brand.brandId, newShop(), token);
    const { rows } = await t.pool.query(
      `SELECT (SELECT row_to_json(c)::text FROM connector_connections c WHERE id = $1) AS row,
              (SELECT encode(credentials, 'escape') FROM connector_connections WHERE id = $1) AS bytes`,
      [connection.id],
    );
    for (const part of [token, token.slice(6, 22), token.slice(-16)]) {
      expect(rows[0].row).not.toContain(part);
      expect(rows[0].bytes).not.toContain(part);
    }
    expect(await t.deps.connections.tokenOf(connection)).toBe(token);
  });
});
