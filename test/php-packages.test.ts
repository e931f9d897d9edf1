import { createHmac } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createBrandWithKey, type TestApp, type TestBrand } from './support/app.ts';
import { commandPath, hasCommand, phpFiles, run } from './support/php.ts';
import { type ReceivedWebhook, type Receiver, startReceiver } from './support/webhook-receiver.ts';

// The WooCommerce plugin and the PrestaShop module, checked with Debian's php-cli and phpunit: their
// rate requests go to this API on loopback (a brand priced by the demo grid), their order pushes to a
// receiver that also plays a slow and a broken API. Without PHP on the machine the suite is skipped.
const CONNECTORS = fileURLToPath(new URL('../connectors/', import.meta.url));
const WOOCOMMERCE = `${CONNECTORS}woocommerce-plugin`;
const PRESTASHOP = `${CONNECTORS}prestashop-module`;
const PHP = hasCommand('php') && hasCommand('phpunit');
const SHOP_SECRET = 'pss_test_0f9e8d7c6b5a4f3e2d1c';
const PUSH_PATH = /^\/(ok|fail)\/([0-9a-f]+)\/connectors\/prestashop\/orders$/;

let t: TestApp;
let brand: TestBrand;
let apiBase: string;
let receiver: Receiver;
let env: Record<string, string>;

/** The receiver's answers: pushes accepted or refused by path, a rate answer missing a price, silence. */
function respond(request: ReceivedWebhook) {
  const push = PUSH_PATH.exec(request.path);
  if (push) return { status: push[1] === 'ok' ? 202 : 503, body: '{"ok":true}' };
  const captured = /^\/captured\/([0-9a-f]+)$/.exec(request.path);
  if (captured) {
    const pushes = receiver.received.flatMap((r) => {
      const m = PUSH_PATH.exec(r.path);
      return m && m[2] === captured[1] ? [{ mode: m[1], headers: r.headers, body: r.body }] : [];
    });
    return { status: 200, body: JSON.stringify(pushes), headers: { 'content-type': 'application/json' } };
  }
  if (request.path.startsWith('/slow/')) return 'hold' as const;
  if (request.path === '/incomplete/public/v1/rates') {
    const express = {
      service: 'express',
      name: 'Express — same day',
      price_eur: 12.9,
      price_excl_tax_eur: 10.75,
    };
    const standard = { service: 'standard', name: 'Standard — next business day', price_eur: 9.6 };
    return { status: 200, body: JSON.stringify({ ok: true, available: true, rates: [express, standard] }) };
  }
  return { status: 404, body: '{"ok":false,"error":"not_found"}' };
}

beforeAll(async () => {
  if (!PHP) return;
  t = await buildTestApp();
  brand = await createBrandWithKey(t.deps, { scopes: ['invoices:read'] }); // any valid key may quote
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  apiBase = address.replace(/\/$/, '');
  receiver = await startReceiver(respond);
  env = {
    DLV_TEST_API_BASE: apiBase,
    DLV_TEST_API_KEY: brand.key,
    DLV_TEST_RECEIVER: receiver.url('').replace(/\/$/, ''),
    DLV_TEST_SHOP_SECRET: SHOP_SECRET,
  };
});

afterAll(async () => {
  await receiver?.close();
  await t?.close();
});

/** phpunit's summary must say every test ran: a skipped integration test would prove nothing. */
function expectAllRan(result: { code: number; stdout: string; stderr: string }, atLeast: number) {
  expect(result.code, result.stdout + result.stderr).toBe(0);
  const summary = /OK \((\d+) tests?, (\d+) assertions?\)/.exec(result.stdout);
  expect(summary, result.stdout).not.toBeNull();
  expect(Number(summary![1])).toBeGreaterThanOrEqual(atLeast);
}

describe('WooCommerce plugin and PrestaShop module (PHP)', () => {
  it.skipIf(!PHP)('every PHP file parses (php -l)', async () => {
    const files = [...phpFiles(WOOCOMMERCE), ...phpFiles(PRESTASHOP)];
    expect(files.length).toBeGreaterThan(20);
    for (const file of files) {
      const lint = await run('php', ['-l', file]);
      expect(lint.code, `${file}\n${lint.stdout}${lint.stderr}`).toBe(0);
    }
  });

  it.skipIf(!PHP)(
    'the WooCommerce plugin quotes the real API through its shipping method',
    async () => {
      expectAllRan(await run('phpunit', [], { cwd: WOOCOMMERCE, env }), 29);
    },
    60_000,
  );

  it.skipIf(!PHP)(
    'the PrestaShop module prices its carriers and pushes signed orders',
    async () => {
      const before = receiver.received.length;
      expectAllRan(await run('phpunit', [], { cwd: PRESTASHOP, env }), 20);

      // Checked again here, independently of the PHP assertions: what the module sent is what the
      // bridge will accept (the contract's headers and signature, JSON body).
      const pushes = receiver.received.slice(before).filter((r) => PUSH_PATH.test(r.path));
      expect(pushes.length).toBeGreaterThanOrEqual(25);
      for (const push of pushes) {
        // Signed over `{timestamp}.{body}` (the bridge refuses replays): the timestamp is Unix seconds.
        const timestamp = push.headers['x-dlv-timestamp']!;
        expect(timestamp).toMatch(/^\d{10}$/);
        const signature = createHmac('sha256', SHOP_SECRET)
          .update(`${timestamp}.${push.body}`, 'utf8')
          .digest('base64');
        expect(push.headers['x-dlv-signature']).toBe(signature);
        expect(push.headers['x-dlv-connection']).toBe('con_test42');
        expect(push.headers['x-dlv-delivery-id']).toMatch(
          /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
        );
        expect(push.headers['content-type']).toBe('application/json');
        expect(['order.paid', 'order.cancelled']).toContain(push.json.event);
      }
      // A retry is the same delivery (id and bytes); different deliveries never share an id.
      const byId = new Map<string, string>();
      for (const push of pushes) {
        const id = push.headers['x-dlv-delivery-id']!;
        if (byId.has(id)) expect(push.body).toBe(byId.get(id));
        byId.set(id, push.body);
      }
      expect(byId.size).toBeLessThan(pushes.length);
    },
    120_000,
  );

  it.skipIf(!PHP)(
    'the PrestaShop module also prices through PHP streams where curl is missing',
    async () => {
      const result = await run(
        'php',
        // phpunit is a PHP script: run by php itself, with curl_init gone as on a host without php-curl.
        ['-d', 'disable_functions=curl_init', commandPath('phpunit')!, '--filter', 'ShippingCostTest'],
        { cwd: PRESTASHOP, env },
      );
      expectAllRan(result, 8);
    },
    60_000,
  );
});
