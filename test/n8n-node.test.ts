import { readFileSync } from 'node:fs';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LivraisonDlv } from '../connectors/n8n/nodes/LivraisonDlv/LivraisonDlv.node.ts';
import { LivraisonDlvTrigger } from '../connectors/n8n/nodes/LivraisonDlvTrigger/LivraisonDlvTrigger.node.ts';
import { signatureProblem } from '../connectors/n8n/shared/signature.ts';
import { TEST_PICKUP_ADDRESS, type TestBrand } from './support/app.ts';
import { type LiveApi, startLiveApi } from './support/live-api.ts';
import { actionContext, type Credentials, testCredentials, triggerNode } from './support/n8n-harness.ts';
import { VALID_ORDER } from './support/orders.ts';
import {
  deliveriesSettled,
  drained,
  eventually,
  type Receiver,
  startReceiver,
} from './support/webhook-receiver.ts';

let api: LiveApi;
let receiver: Receiver;
let brand: TestBrand;
let credentials: Credentials;
const trigger = new LivraisonDlvTrigger();
const action = new LivraisonDlv();

beforeAll(async () => {
  api = await startLiveApi();
  receiver = await startReceiver();
  brand = await api.brand({ name: 'Maison n8n' });
  credentials = { apiKey: brand.key, baseUrl: api.base };
});
afterAll(async () => {
  await receiver?.close();
  await api?.close();
});

async function placeOrder() {
  const res = await fetch(`${api.base}/orders`, {
    method: 'POST',
    headers: { ...brand.headers, 'content-type': 'application/json' },
    body: JSON.stringify(VALID_ORDER),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { trackingRef: string }).trackingRef;
}

async function subscriptionStatus(id: string) {
  return (await fetch(`${api.base}/webhook-subscriptions/${id}`, { headers: brand.headers })).status;
}

describe('package', () => {
  it('declares the community-node manifest pointing at the built files', () => {
    const pkg = JSON.parse(readFileSync(new URL('../connectors/n8n/package.json', import.meta.url), 'utf8'));
    expect(pkg.name).toMatch(/^n8n-nodes-/);
    expect(pkg.keywords).toContain('n8n-community-node-package');
    expect(pkg.peerDependencies).toHaveProperty('n8n-workflow');
    expect(pkg.n8n).toEqual({
      n8nNodesApiVersion: 1,
      credentials: ['dist/credentials/LivraisonDlvApi.credentials.js'],
      nodes: [
        'dist/nodes/LivraisonDlv/LivraisonDlv.node.js',
        'dist/nodes/LivraisonDlvTrigger/LivraisonDlvTrigger.node.js',
      ],
    });
  });
});

describe('credentials', () => {
  it('tests the key with GET /me', async () => {
    expect(await testCredentials(credentials)).toBe(200);
    expect(await testCredentials({ ...credentials, apiKey: `dlv_${'0'.repeat(64)}` })).toBe(401);
  });
});

describe('signature check', () => {
  const secret = `whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}`;
  const body = '{"type":"order.created","id":"msg_1","created_at":"2026-01-01T00:00:00.000Z","data":{}}';
  const signed = (at: Date, key = secret) => new Webhook(key).sign('msg_1', at, body).split(' ')[0]!;
  const headers = (at: Date, signature = signed(at)) => ({
    'webhook-id': 'msg_1',
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signature,
  });

  it('accepts what a Standard Webhooks library signs, including beside a rotated secret', () => {
    const now = new Date();
    expect(signatureProblem(secret, headers(now), Buffer.from(body))).toBeNull();
    const other = `whsec_${Buffer.from('another secret of thirty-two byt').toString('base64')}`;
    expect(
      signatureProblem(secret, headers(now, `${signed(now, other)} ${signed(now)}`), Buffer.from(body)),
    ).toBeNull();
  });

  it('refuses another secret, another body, an old timestamp and missing headers', () => {
    const now = new Date();
    const other = `whsec_${Buffer.from('another secret of thirty-two byt').toString('base64')}`;
    expect(signatureProblem(other, headers(now), Buffer.from(body))).toMatch(/no signature matches/);
    expect(signatureProblem(secret, headers(now), Buffer.from(body.replace('msg_1', 'msg_2')))).toMatch(
      /no signature/,
    );
    const old = new Date(Date.now() - 6 * 60_000);
    expect(signatureProblem(secret, headers(old), Buffer.from(body))).toMatch(/too far/);
    expect(signatureProblem(secret, { 'webhook-id': 'msg_1' }, Buffer.from(body))).toMatch(/missing/);
  });
});

describe('trigger node', () => {
  it('subscribes on activation, emits a signed delivery, rejects a forged one, and unsubscribes', async () => {
    const path = `/n8n/${Date.now()}`;
    const node = triggerNode({
      credentials,
      parameters: { events: ['order.created'] },
      webhookUrl: receiver.url(path),
    });
    const methods = trigger.webhookMethods.default;

    expect(await methods.checkExists.call(node.hook)).toBe(false);
    expect(await methods.create.call(node.hook)).toBe(true);
    expect(node.staticData).toEqual({
      subscriptionId: expect.stringMatching(/^whk_/),
      secret: expect.stringMatching(/^whsec_/),
    });
    expect(await methods.checkExists.call(node.hook)).toBe(true);

    const ref = await placeOrder();
    const hooks = () => receiver.received.filter((r) => r.path === path);
    const [delivery] = await eventually(async () => hooks().length >= 1 && hooks());
    const genuine = node.webhookContext({ headers: delivery!.headers, body: delivery!.body });
    const result = await trigger.webhook.call(genuine.context);
    expect(genuine.response.status).toBeUndefined();
    expect(result.workflowData).toEqual([
      [
        {
          json: expect.objectContaining({
            event: 'order.created',
            event_id: delivery!.headers['webhook-id'],
            order: expect.objectContaining({ tracking_ref: ref }),
          }),
        },
      ],
    ]);

    const forgedBody = node.webhookContext({
      headers: delivery!.headers,
      body: delivery!.body.replace(ref, 'DLV-0000000000'),
    });
    expect(await trigger.webhook.call(forgedBody.context)).toEqual({ noWebhookResponse: true });
    expect(forgedBody.response).toEqual({ status: 401, body: { ok: false, error: 'invalid_signature' } });
    const signature = delivery!.headers['webhook-signature']!;
    const forgedSignature = node.webhookContext({
      headers: { ...delivery!.headers, 'webhook-signature': `v1,${Buffer.alloc(32).toString('base64')}` },
      body: delivery!.body,
    });
    expect(signature).not.toContain(Buffer.alloc(32).toString('base64'));
    expect(await trigger.webhook.call(forgedSignature.context)).toEqual({ noWebhookResponse: true });
    expect(forgedSignature.response.status).toBe(401);

    const id = node.staticData.subscriptionId as string;
    expect(await methods.delete.call(node.hook)).toBe(true);
    expect(node.staticData).toEqual({});
    expect(await subscriptionStatus(id)).not.toBe(200);
    await placeOrder();
    await drained(api.t.pool, 'webhooks_fan_out');
    await deliveriesSettled(api.t.pool);
    expect(hooks()).toHaveLength(1);
    // Deleting again (n8n retries a deactivation) is not an error.
    node.staticData.subscriptionId = id;
    expect(await methods.delete.call(node.hook)).toBe(true);
  });

  it('replaces its subscription when the selected events change', async () => {
    const parameters = { events: ['order.created'] };
    const node = triggerNode({ credentials, parameters, webhookUrl: receiver.url('/n8n/events') });
    const methods = trigger.webhookMethods.default;
    await methods.create.call(node.hook);
    const first = node.staticData.subscriptionId as string;
    parameters.events = ['order.status_changed', 'order.delivered'];
    expect(await methods.checkExists.call(node.hook)).toBe(false);
    expect(await subscriptionStatus(first)).not.toBe(200);
    await methods.create.call(node.hook);
    expect(node.staticData.subscriptionId).not.toBe(first);
    expect(await methods.checkExists.call(node.hook)).toBe(true);
    await methods.delete.call(node.hook);
  });

  it('acknowledges without running an event type it was not set up for', async () => {
    const node = triggerNode({
      credentials,
      parameters: { events: ['invoice.issued'] },
      webhookUrl: receiver.url('/x'),
    });
    const secret = `whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}`;
    node.staticData.secret = secret;
    const body = JSON.stringify({
      type: 'order.created',
      id: 'msg_1',
      created_at: new Date().toISOString(),
      data: {},
    });
    const at = new Date();
    const { context } = node.webhookContext({
      headers: {
        'webhook-id': 'msg_1',
        'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
        'webhook-signature': new Webhook(secret).sign('msg_1', at, body),
      },
      body,
    });
    expect(await trigger.webhook.call(context)).toEqual({
      webhookResponse: { ok: true, ignored: 'order.created' },
    });
  });

  it('tells a brand the operator has not opened webhooks to how to request access', async () => {
    const closed = await api.brand({ webhooksAllowed: false, scopes: ['orders:read'] });
    const node = triggerNode({
      credentials: { ...credentials, apiKey: closed.key },
      parameters: { events: ['order.created'] },
      webhookUrl: receiver.url('/closed'),
    });
    await expect(trigger.webhookMethods.default.create.call(node.hook)).rejects.toThrow(
      /^webhooks_not_enabled: .*Request access/,
    );
    expect(node.staticData).toEqual({});
  });

  it('shows the API explanation when the subscription is refused', async () => {
    const node = triggerNode({
      credentials,
      parameters: { events: ['order.created'] },
      webhookUrl: 'not a url',
    });
    await expect(trigger.webhookMethods.default.create.call(node.hook)).rejects.toThrow(/invalid_request/);
  });
});

describe('action node', () => {
  const run = (
    parameters: Record<string, unknown>,
    extra: { items?: number; continueOnFail?: boolean } = {},
  ) =>
    action.execute.call(
      actionContext({
        credentials,
        parameters: parameters as never,
        items: Array.from({ length: extra.items ?? 1 }, () => ({ json: {} })),
        continueOnFail: extra.continueOnFail,
      }),
    );
  const orderInput = {
    resource: 'order',
    operation: 'create',
    customer_email: VALID_ORDER.customer_email,
    delivery_address: VALID_ORDER.delivery_address,
    additionalFields: { delivery_recipient: 'Jane Doe', reference: `N8N-${Date.now()}`, quantity: 2 },
  };

  it('creates an order, once even when the item is run again', async () => {
    const [[first]] = (await run(orderInput)) as [[{ json: Record<string, any> }]];
    expect(first.json).toMatchObject({ status: 'pending', quantity: 2, delivery_recipient: 'Jane Doe' });
    const [again] = (await run(orderInput, { items: 2 })) as [{ json: Record<string, any> }[]];
    expect(again.map((item) => item.json.tracking_ref)).toEqual([
      first.json.tracking_ref,
      first.json.tracking_ref,
    ]);
  });

  it('gets an order with its history', async () => {
    const ref = await placeOrder();
    const [[got]] = (await run({ resource: 'order', operation: 'get', trackingRef: ref })) as [
      [{ json: any }],
    ];
    expect(got.json).toMatchObject({
      tracking_ref: ref,
      events: [expect.objectContaining({ status: 'pending' })],
    });
  });

  it('lists orders newest first, up to a limit or all of them across pages', async () => {
    // A brand of its own with more orders than one page (200) holds.
    const busy = await api.brand();
    const pickup = { id: busy.brandId, defaultPickupAddress: TEST_PICKUP_ADDRESS };
    for (let i = 0; i < 205; i += 41) {
      await Promise.all(
        Array.from({ length: 41 }, () => api.t.deps.orders.create(pickup, { ...VALID_ORDER })),
      );
    }
    const busyCredentials = { ...credentials, apiKey: busy.key };
    const list = async (parameters: Record<string, unknown>) =>
      (
        await action.execute.call(
          actionContext({
            credentials: busyCredentials,
            parameters: { resource: 'order', operation: 'list', ...parameters } as never,
          }),
        )
      )[0]!.map((item) => item.json.tracking_ref as string);
    const all = await list({ returnAll: true, status: '' });
    expect(all).toHaveLength(205);
    expect(new Set(all).size).toBe(205);
    expect(await list({ returnAll: false, limit: 3, status: 'pending' })).toEqual(all.slice(0, 3));
    expect(await list({ returnAll: true, status: 'delivered' })).toEqual([]);
  });

  it('gets delivery rates, cheapest first', async () => {
    const [[rates]] = (await run({
      resource: 'rate',
      operation: 'get',
      delivery_zip: '75011',
      delivery_address: '',
      additionalFields: { unit_type: 'parcel', unit_weight: '2.5kg' },
    })) as [[{ json: any }]];
    expect(rates.json.available).toBe(true);
    expect(rates.json.reason).toBeNull();
    expect(rates.json.cheapest).toEqual(rates.json.rates[0]);
    const [[lyon]] = (await run({
      resource: 'rate',
      operation: 'get',
      delivery_zip: '69002',
      delivery_address: '',
      additionalFields: {},
    })) as [[{ json: any }]];
    expect(lyon.json).toEqual({ available: false, reason: 'out_of_zone', rates: [], cheapest: null });
  });

  it("fails with the API's explanation, or reports it per item with continueOnFail", async () => {
    const lyon = { ...orderInput, delivery_address: '1 place Bellecour 69002 Lyon' };
    await expect(run(lyon)).rejects.toThrow(/out_of_zone: .*delivery_address|out_of_zone/);
    const [items] = await run(lyon, { continueOnFail: true });
    expect(items).toEqual([
      { json: { error: expect.stringMatching(/^out_of_zone: /) }, pairedItem: { item: 0 } },
    ]);
    await expect(run({ resource: 'order', operation: 'get', trackingRef: 'DLV-0000000000' })).rejects.toThrow(
      /not_found/,
    );
  });
});
