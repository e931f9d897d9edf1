import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, buildTestApp, call, createBrandWithKey, type TestApp, testDatabaseUrl } from './support/app.ts';
import { createOrder } from './support/orders.ts';
import { runDlv } from './support/run-cli.ts';

const OPS = { authorization: 'Bearer ops-secret-token-0123456789abcdef' };
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ config: { opsToken: 'ops-secret-token-0123456789abcdef' } });
});
afterAll(() => t.close());

describe('operations API', () => {
  it("reads any brand's order and moves it, which the brand then sees", async () => {
    const brand = await createBrandWithKey(t.deps);
    const ref = (await createOrder(t.app, brand)).data.trackingRef;
    const shown = await call(t.app, { method: 'GET', url: `/ops/v1/orders/${ref}`, headers: OPS });
    expect(shown.statusCode).toBe(200);
    expect(shown.data.brand_id).toBe(brand.brandId);

    const moved = await call(t.app, {
      method: 'POST',
      url: `/ops/v1/orders/${ref}/status`,
      headers: OPS,
      payload: { status: 'picked_up', note: 'Scan hub Saint-Ouen' },
    });
    expect(moved.statusCode).toBe(200);
    expect(moved.data.order.status).toBe('picked_up');
    const seen = await call(t.app, { method: 'GET', url: `${API}/orders/${ref}`, headers: brand.headers });
    expect(seen.data.order.events.at(-1)).toMatchObject({ status: 'picked_up', note: 'Scan hub Saint-Ouen' });

    const refused = await call(t.app, {
      method: 'POST',
      url: `/ops/v1/orders/${ref}/status`,
      headers: OPS,
      payload: { status: 'delivered' },
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.data.error).toBe('invalid_transition');
    const unknown = await call(t.app, {
      method: 'POST',
      url: `/ops/v1/orders/${ref}/status`,
      headers: OPS,
      payload: { status: 'lost' },
    });
    expect(unknown.statusCode).toBe(400);
    const missing = await call(t.app, { method: 'GET', url: '/ops/v1/orders/DLV-0000000000', headers: OPS });
    expect(missing.statusCode).toBe(404);
    const fifty = `DLV-${'7'.repeat(46)}`;
    const long = await call(t.app, { method: 'GET', url: `/ops/v1/orders/${fifty}`, headers: OPS });
    expect(long.statusCode).toBe(404);
    const moveLong = await call(t.app, {
      method: 'POST',
      url: `/ops/v1/orders/${fifty}/status`,
      headers: OPS,
      payload: { status: 'delivered' },
    });
    expect(moveLong.statusCode).toBe(404);
    const wrong = await call(t.app, {
      method: 'GET',
      url: `/ops/v1/orders/${ref}`,
      headers: { authorization: 'Bearer nope' },
    });
    expect(wrong.statusCode).toBe(401);
  });

  it('serves its own OpenAPI document, separate from the public one', async () => {
    const ops = await call(t.app, { method: 'GET', url: '/ops/v1/openapi.json' });
    expect(ops.statusCode).toBe(200);
    expect(Object.keys(ops.data.paths)).toEqual([
      '/orders/{trackingRef}',
      '/orders/{trackingRef}/status',
      '/pickups',
      '/pickups/{pickupId}/close',
      '/couriers',
      '/couriers/{courierId}/password',
      '/couriers/{courierId}/disable',
      '/rounds',
      '/rounds/{roundId}',
      '/rounds/plan',
      '/rounds/{roundId}/stops',
      '/rounds/{roundId}/pins',
      '/rounds/{roundId}/moves',
      '/hubs',
      '/vehicles',
      '/vehicles/{vehicleId}/disable',
      '/shifts',
      '/scans',
      '/brands/{brandId}/invoices',
      '/brands/{brandId}/invoices/{id}',
      '/invoices/{id}',
      '/invoices/issue',
      '/invoices/{id}/mark-paid',
      '/brands/{brandId}/company',
      '/grids/default',
      '/brands/{brandId}/grid',
      '/brands',
      '/brands/{brandId}',
      '/sessions',
      '/sessions/current',
      '/me',
      '/me/password',
      '/me/second-factor',
      '/me/second-factor/confirm',
      '/me/recovery-codes',
      '/operators',
      '/operators/{operatorId}',
      '/operators/{operatorId}/disable',
      '/operators/{operatorId}/reset-password',
      '/operators/{operatorId}/reset-second-factor',
      '/tokens',
      '/tokens/{id}/revoke',
      '/audit',
      '/orders/{trackingRef}/proof',
      '/openapi.json',
    ]);
    const pub = await call(t.app, { method: 'GET', url: `${API}/openapi.json` });
    expect(JSON.stringify(pub.data.paths)).not.toContain('/status');
    expect(JSON.stringify(pub.data.paths)).not.toContain('/close');
  });
});

describe('dlv orders', () => {
  it('shows an order and moves it, with errors on stderr', async () => {
    const env = { DATABASE_URL: testDatabaseUrl(), PUBLIC_BASE_URL: 'http://127.0.0.1:3000' };
    const brand = await createBrandWithKey(t.deps);
    const ref = (await createOrder(t.app, brand)).data.trackingRef;
    const moved = await runDlv(['orders', 'set-status', ref, 'picked_up', '--note', 'depot', '--json'], env);
    expect(moved.code, moved.stderr).toBe(0);
    expect(JSON.parse(moved.stdout).order.status).toBe('picked_up');
    const shown = await runDlv(['orders', 'show', ref], env);
    expect(shown.stdout).toContain('picked_up');
    expect(shown.stdout).toContain('depot');
    const refused = await runDlv(['orders', 'set-status', ref, 'delivered'], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/cannot go from "picked_up" to "delivered"/);
    const unknown = await runDlv(['orders', 'show', 'DLV-0000000000'], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/No order/);
  });
});
