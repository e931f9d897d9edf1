import { createHmac, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normaliseShopUrl } from '../src/connectors/prestashop/prestashop-link.ts';
import { storesOn } from '../src/db/stores.ts';
import { destinationGuard } from '../src/infra/http/url-guard.ts';
import { jobQueueOn } from '../src/infra/queue/job-queue.ts';
import { type FakePrestaShop, startFakePrestaShop } from './support/fake-prestashop.ts';
import { postJson } from './support/fake-shopify/delivery.ts';
import { type LiveApi, startLiveApi } from './support/live-api.ts';
import {
  deliveryOrdersOf,
  eventually,
  everyPushProcessed,
  type LinkedPrestaShop,
  linkPrestaShop,
  push,
  pushUrlOf,
} from './support/prestashop.ts';
import { runDlv } from './support/run-cli.ts';

// Linking a PrestaShop shop (CLI, refusals, credentials at rest), the push receiver's refusals, and
// the Webservice poll that finds what no push brought.

let live: LiveApi;
let fake: FakePrestaShop;
let brandId: string;

beforeAll(async () => {
  live = await startLiveApi();
  fake = await startFakePrestaShop();
  brandId = (await live.brand()).brandId;
}, 30_000);
afterAll(async () => {
  await fake?.close();
  await live?.close();
});

const count = async (sql: string, values: unknown[] = []) =>
  (await live.t.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${sql}`, values)).rows[0]!.n;

describe('dlv connectors prestashop link', () => {
  const env = () => ({
    DATABASE_URL: live.databaseUrl,
    PUBLIC_BASE_URL: 'http://127.0.0.1:3000',
    CONNECTORS_ALLOW_INSECURE: '1',
  });

  it('links the shop, shows the connection id and secret once, and keeps both keys encrypted', async () => {
    fake.addShop('cli-shop');
    const key = fake.createKey('cli-shop').key;
    const url = `${fake.url('cli-shop')}/`;
    const res = await runDlv(
      ['connectors', 'prestashop', 'link', '--brand', brandId, '--url', url, '--key', key, '--json'],
      env(),
    );
    expect(res.code, res.stderr).toBe(0);
    const out = JSON.parse(res.stdout);
    expect(out).toMatchObject({
      platform: 'prestashop',
      shop: fake.url('cli-shop'),
      status: 'active',
      poll_enabled: true,
    });
    expect(out.id).toMatch(/^con_[0-9a-f]{16}$/);
    expect(out.secret).toMatch(/^[\w-]{43}$/);
    const human = await runDlv(['connectors', 'show', out.id], env());
    expect(human.stdout).not.toContain(out.secret);
    const { rows } = await live.t.pool.query('SELECT credentials FROM connector_connections WHERE id = $1', [
      out.id,
    ]);
    const sealed = rows[0].credentials as Buffer;
    for (const secret of [out.secret, key]) {
      expect(sealed.includes(Buffer.from(secret))).toBe(false);
      expect(sealed.toString('base64')).not.toContain(secret);
    }
    const shop = await storesOn(live.t.pool).prestashopShops.find(out.id);
    expect(shop).toMatchObject({ pollEnabled: true, deliveredStateId: 5, timeZone: 'Europe/Paris' });
    const again = await runDlv(['connectors', 'prestashop', 'link', '--brand', brandId, '--url', url], env());
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain('already linked');
  });

  it('refuses a key lacking any permission the bridge uses, naming the missing ones, storing nothing', async () => {
    fake.addShop('partial');
    const before = await count('connector_connections');
    // Enough to read orders and the settings (all a link used to try), not to poll or write back.
    const partial = fake.createKey('partial', {
      orders: ['GET'],
      configurations: ['GET'],
      order_states: ['GET'],
      addresses: ['GET'],
      customers: ['GET'],
      countries: ['GET'],
      currencies: ['GET'],
      products: ['GET'],
      order_carriers: ['GET'],
    }).key;
    const refused = live.t.deps.prestashop.linking.link({ brandId, url: fake.url('partial'), key: partial });
    await expect(refused).rejects.toMatchObject({
      code: 'invalid_request',
      message: expect.stringContaining(
        'The Webservice key lacks permissions (GET carriers, PUT order_carriers, POST order_histories).',
      ),
      details: [{ field: 'key', message: expect.stringContaining('GET carriers, PUT order_carriers') }],
    });
    expect(await count('connector_connections')).toBe(before);
    // A key given later is checked the same way, and changes nothing.
    const linked = await linkPrestaShop(live, fake, brandId, { withKey: false });
    const narrow = fake.createKey(linked.slug, { orders: ['GET'], configurations: ['GET'] }).key;
    await expect(
      live.t.deps.prestashop.upkeep.replaceKey(brandId, linked.connection.id, narrow),
    ).rejects.toMatchObject({ message: expect.stringContaining('POST order_histories') });
    expect((await storesOn(live.t.pool).prestashopShops.find(linked.connection.id))?.pollEnabled).toBe(false);
  });

  it('refuses a key the shop refuses, a malformed key and a shop that is not public, storing nothing', async () => {
    fake.addShop('refusals');
    const before = await count('connector_connections');
    const link = (url: string, key?: string) => live.t.deps.prestashop.linking.link({ brandId, url, key });
    await expect(link(fake.url('refusals'), 'A'.repeat(32))).rejects.toMatchObject({
      code: 'invalid_request',
      message: expect.stringContaining('refused the Webservice key'),
    });
    await expect(link(fake.url('refusals'), 'short')).rejects.toMatchObject({ code: 'invalid_request' });
    const narrow = fake.createKey('refusals', { orders: ['GET'] }).key;
    await expect(link(fake.url('refusals'), narrow)).rejects.toMatchObject({
      message: expect.stringContaining('The key needs: GET on orders'),
    });
    expect(await count('connector_connections')).toBe(before);
    const strict = destinationGuard({ allowInsecure: false });
    expect(() => normaliseShopUrl(strict, 'http://shop.example.fr')).toThrow(/https/);
    expect(normaliseShopUrl(strict, 'https://Shop.Example.fr/boutique/')).toBe(
      'https://shop.example.fr/boutique',
    );
    await expect(strict.assertPublic(new URL('https://127.0.0.1/'))).rejects.toThrow(
      /127\.0\.0\.1 is not an allowed address/,
    );
  });
});

describe('the push receiver', () => {
  let linked: LinkedPrestaShop;
  beforeAll(async () => {
    linked = await linkPrestaShop(live, fake, brandId);
  });

  const inbox = () => count('connector_inbox');

  it('answers 401 and stores nothing for a bad signature, an unknown or a disconnected link', async () => {
    const order = fake.createOrder(linked.slug);
    const payload = fake.pushPayload(linked.slug, order.id);
    const before = await inbox();
    const send = (connectionId: string, secret: string, signature?: string) =>
      fake.pushOrder(pushUrlOf(live), { connectionId, secret }, payload, signature ? { signature } : {});
    const wrongSecret = await send(linked.connection.id, 'not-the-secret');
    const forged = await send(linked.connection.id, linked.secret, 'AAAA');
    const unknown = await send('con_0000000000000000', linked.secret);
    const garbage = await send('nonsense', linked.secret);
    for (const res of [wrongSecret, forged, unknown, garbage]) {
      expect(res.status).toBe(401);
      // The same answer whatever was wrong: no oracle for connection ids.
      expect(JSON.parse(res.body).error).toEqual(JSON.parse(wrongSecret.body).error);
    }
    const other = await linkPrestaShop(live, fake, brandId);
    await live.t.deps.connections.disconnect(brandId, other.connection.id);
    expect((await send(other.connection.id, other.secret)).status).toBe(401);
    expect(await inbox()).toBe(before);
    expect(await deliveryOrdersOf(live, linked.connection.id, order.id)).toHaveLength(0);
  });

  it('refuses a replayed push: outside the 5-minute window, or its signature seen before (401), storing nothing', async () => {
    const order = fake.createOrder(linked.slug);
    const payload = fake.pushPayload(linked.slug, order.id);
    const url = pushUrlOf(live);
    const credentials = { connectionId: linked.connection.id, secret: linked.secret };
    const now = Math.floor(Date.now() / 1000);
    const before = await inbox();
    // Signed correctly, but six minutes old, or six minutes ahead.
    for (const timestamp of [now - 360, now + 360]) {
      const stale = await fake.pushOrder(url, credentials, payload, { timestamp });
      expect(stale.status).toBe(401);
      expect(JSON.parse(stale.body).message).toMatch(/5-minute window/);
    }
    // No timestamp, or the body signed without it (the old scheme): not signed.
    const noStamp = await postJson(
      url,
      JSON.stringify(payload),
      {
        'content-type': 'application/json',
        'X-Dlv-Connection': linked.connection.id,
        'X-Dlv-Delivery-Id': randomUUID(),
        'X-Dlv-Signature': createHmac('sha256', linked.secret)
          .update(JSON.stringify(payload))
          .digest('base64'),
      },
      5_000,
    );
    expect(noStamp.status).toBe(401);
    expect(await inbox()).toBe(before);

    // A push captured and sent again as it was, or under another delivery id: refused.
    const sent = await fake.pushOrder(url, credentials, payload, { timestamp: now });
    expect(sent.status).toBe(200);
    const replayed = await postJson(url, sent.sentBody, sent.headers, 5_000);
    expect(replayed.status).toBe(401);
    const renamed = await postJson(
      url,
      sent.sentBody,
      { ...sent.headers, 'X-Dlv-Delivery-Id': randomUUID() },
      5_000,
    );
    expect(renamed.status).toBe(401);
    expect(JSON.parse(renamed.body).message).toMatch(/received already/);
    expect(await inbox()).toBe(before + 1);
    // The module's own retry (the same delivery, signed anew at a later second): a duplicate, accepted.
    const retry = await fake.pushOrder(url, credentials, payload, {
      deliveryId: sent.deliveryId,
      timestamp: now + 1,
    });
    expect(retry.status).toBe(200);
    expect(JSON.parse(retry.body)).toEqual({ ok: true, duplicate: true });
    expect(await inbox()).toBe(before + 1);
    // What is remembered is in the database, for every instance.
    expect(
      await count('prestashop_push_signatures WHERE connection_id = $1', [linked.connection.id]),
    ).toBeGreaterThanOrEqual(2);
  });

  it('refuses a signed push without a delivery id or with an unknown event (400), storing nothing', async () => {
    const order = fake.createOrder(linked.slug);
    const before = await inbox();
    const credentials = { connectionId: linked.connection.id, secret: linked.secret };
    const bad = { ...fake.pushPayload(linked.slug, order.id), event: 'order.shipped' };
    expect((await fake.pushOrder(pushUrlOf(live), credentials, bad)).status).toBe(400);
    const noId = await fake.pushOrder(pushUrlOf(live), credentials, fake.pushPayload(linked.slug, order.id), {
      deliveryId: ' ',
    });
    expect(noId.status).toBe(400);
    expect(await inbox()).toBe(before);
  });
});

describe('the Webservice poll', () => {
  let linked: LinkedPrestaShop;
  beforeAll(async () => {
    linked = await linkPrestaShop(live, fake, brandId);
  });

  it('finds the paid orders no push brought, once, and records what it cannot deliver', async () => {
    const lost = fake.createOrder(linked.slug, { carrier: 'economy' });
    const notOurs = fake.createOrder(linked.slug, { carrier: 'other' });
    const unpaid = fake.createOrder(linked.slug, { state: 1 });
    const far = fake.createOrder(linked.slug, { address: { postcode: '13001', city: 'Marseille' } });
    const pushed = fake.createOrder(linked.slug);
    await push(fake, linked, pushed.id);
    // The cron job, through the worker: it enqueues each due shop's poll.
    await jobQueueOn(live.t.pool).add('prestashop_poll', {});
    const last = [String(far.date_upd), String(pushed.date_upd)].sort().at(-1);
    const polled = await eventually(async () => {
      const row = await storesOn(live.t.pool).prestashopShops.find(linked.connection.id);
      return row?.lastPolledAt && row;
    }, 'the first poll');
    expect(polled.polledThrough).toBe(last);
    const [delivery] = await deliveryOrdersOf(live, linked.connection.id, lost.id);
    expect(delivery).toMatchObject({ service: 'economy', status: 'pending' });
    const problems = await live.t.deps.connections.problems({ brandId, connectionId: linked.connection.id });
    expect(problems).toEqual([expect.objectContaining({ kind: 'out_of_zone', externalId: String(far.id) })]);
    expect(await deliveryOrdersOf(live, linked.connection.id, notOurs.id)).toHaveLength(0);
    expect(await deliveryOrdersOf(live, linked.connection.id, unpaid.id)).toHaveLength(0);
    await eventually(
      async () => (await deliveryOrdersOf(live, linked.connection.id, pushed.id)).length === 1,
      'pushed',
    );
    const listed = linked.shop.calls.find((c) => c.path === '/api/orders' && c.query['filter[date_upd]']);
    expect(listed?.query).toMatchObject({
      date: '1',
      sort: '[date_upd_ASC]',
      limit: '0,50',
      display: 'full',
    });

    // Polled again (and with the brand now taking every order): still one of each.
    await live.t.deps.connections.updateSettings(brandId, linked.connection.id, { orderFilter: 'all' });
    fake.setOrderState(linked.slug, notOurs.id, 2);
    expect(await live.t.deps.prestashop.poll.poll(linked.connection.id)).toMatch(/orders seen/);
    expect(await deliveryOrdersOf(live, linked.connection.id, lost.id)).toHaveLength(1);
    expect(await deliveryOrdersOf(live, linked.connection.id, notOurs.id)).toHaveLength(1);
  });

  it('cancels the delivery order of a shop order it finds cancelled', async () => {
    const order = fake.createOrder(linked.slug);
    await push(fake, linked, order.id);
    await eventually(
      async () => (await deliveryOrdersOf(live, linked.connection.id, order.id))[0],
      'created',
    );
    fake.setOrderState(linked.slug, order.id, 6); // the cancellation's push is lost
    await live.t.deps.prestashop.poll.poll(linked.connection.id);
    expect((await deliveryOrdersOf(live, linked.connection.id, order.id))[0]?.status).toBe('cancelled');
    // Seen again: nothing more, no problem recorded.
    await live.t.deps.prestashop.poll.poll(linked.connection.id);
    const problems = await live.t.deps.connections.problems({ brandId, connectionId: linked.connection.id });
    expect(problems.filter((p) => p.kind === 'not_cancellable')).toHaveLength(0);
  });

  it('counts only our carriers by their id_reference: a shop carrier named like ours never counts, ours edited still does', async () => {
    const own = await linkPrestaShop(live, fake, brandId);
    // The merchant's own carriers, named exactly as ours or as our services.
    const sameName = fake.addCarrier(own.slug, 'Livraison DLV — Standard');
    const standard = fake.addCarrier(own.slug, 'Standard');
    const express = fake.addCarrier(own.slug, 'Express');
    // Ours, edited in the back office: a new id, the same id_reference.
    const ourExpress = own.shop.tables.carriers!.find((c) => c.id_reference === '7')!;
    const edited = fake.editCarrier(own.slug, ourExpress.id, { name: 'Livraison DLV — Express (nouveau)' });
    const theirs = [sameName, standard, express].map((c) => fake.createOrder(own.slug, { carrierId: c.id }));
    const ours = fake.createOrder(own.slug, { carrierId: edited.id });
    // The module's pushes name no service for theirs (and the bridge skips them)…
    for (const order of theirs)
      expect(fake.pushPayload(own.slug, order.id)).toMatchObject({ order: { carrier_service: null } });
    expect(fake.pushPayload(own.slug, ours.id)).toMatchObject({ order: { carrier_service: 'express' } });
    // …and the poll, which reads the carriers itself, counts only ours.
    expect(await live.t.deps.prestashop.poll.poll(own.connection.id)).toMatch(/orders seen/);
    for (const order of theirs)
      expect(await deliveryOrdersOf(live, own.connection.id, order.id)).toHaveLength(0);
    expect(await deliveryOrdersOf(live, own.connection.id, ours.id)).toEqual([
      expect.objectContaining({ service: 'express' }),
    ]);
    for (const order of theirs) await push(fake, own, order.id);
    await everyPushProcessed(live, own);
    for (const order of theirs)
      expect(await deliveryOrdersOf(live, own.connection.id, order.id)).toHaveLength(0);
  });

  it('is not run for a shop linked without a Webservice key', async () => {
    const pushOnly = await linkPrestaShop(live, fake, brandId, { withKey: false });
    expect(await live.t.deps.prestashop.poll.poll(pushOnly.connection.id)).toBe(
      'no Webservice key: not polled',
    );
    expect(pushOnly.shop.calls).toHaveLength(0);
  });
});
