/**
 * POST /courier/api/v1/deliveries (decision 0006): the courier app's door scan with its files, on
 * the courier's session and CSRF token; the same service as the ops route (test/proof-upload.test.ts).
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser, PASSWORD, uniqueEmail } from './support/account-browser.ts';
import { buildTestApp, call, createBrandWithKey } from './support/app.ts';
import { testOperator } from './support/audit.ts';
import { createOrder } from './support/orders.ts';
import { orderAtTheDoor, testPhoto, testSignature } from './support/proofs.ts';

let t: Awaited<ReturnType<typeof buildTestApp>>;
let dataDir: string;
let ip = 0;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'dlv-courier-proof-'));
  t = await buildTestApp({ config: { dataDir } });
});
afterAll(async () => {
  await t?.close();
  await rm(dataDir, { recursive: true, force: true });
});

async function courierSession() {
  const email = uniqueEmail('courier');
  await t.deps.couriers.add({ email, name: 'Courier Proof', password: PASSWORD, locale: 'fr' }, testOperator);
  const b = new Browser(t.app, `10.77.0.${++ip}`);
  expect((await b.submit('/courier/login', '/courier/login', { email, password: PASSWORD })).status).toBe(
    303,
  );
  const me = JSON.parse((await b.get('/courier/api/v1/me')).body);
  const cookie = [...b.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  return { cookie, csrf: me.csrf_token as string };
}

const objects = async () =>
  (
    await readdir(path.join(dataDir, 'objects'), { recursive: true, withFileTypes: true }).catch(() => [])
  ).filter((e) => e.isFile() && !e.name.endsWith('.content-type')).length;

async function deliver(
  ref: string,
  session: { cookie: string; csrf?: string },
  scan: Record<string, unknown>,
) {
  const form = new FormData();
  form.append('scan', JSON.stringify({ code: ref, ...scan }));
  form.append('photo', new Blob([await testPhoto()]), 'p.jpg');
  form.append('signature', new Blob([await testSignature()]), 's.png');
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return call(t.app, {
    method: 'POST',
    url: '/courier/api/v1/deliveries',
    headers: {
      cookie: session.cookie,
      ...(session.csrf ? { 'x-csrf-token': session.csrf } : {}),
      'content-type': request.headers.get('content-type')!,
    },
    payload: Buffer.from(await request.arrayBuffer()),
  });
}

const doorScan = () => ({
  id: randomUUID(),
  context: 'door',
  happened_at: new Date(Date.now() - 30_000).toISOString(),
  outcome: 'delivered',
  received_by: 'Camille',
});

describe('POST /courier/api/v1/deliveries', () => {
  it('applies the courier’s door scan with the photo and the signature, the attempt naming the courier', async () => {
    const session = await courierSession();
    const door = await orderAtTheDoor(t);
    const scan = doorScan();
    const answer = await deliver(door.ref, session, scan);
    expect(answer.statusCode).toBe(200);
    expect(answer.data).toMatchObject({ id: scan.id, result: 'applied', status: 'delivered', problem: null });
    const { rows } = await t.pool.query(
      'SELECT courier_id, photo_key, signature_key FROM delivery_attempts WHERE scan_id = $1',
      [scan.id],
    );
    expect(rows[0].courier_id).toMatch(/^cou_[0-9a-f]{16}$/);
    expect(rows[0].photo_key).not.toBeNull();
    expect(rows[0].signature_key).not.toBeNull();
  });

  it('refuses a call without the CSRF token (403) or without a session (401): nothing stored', async () => {
    const session = await courierSession();
    const door = await orderAtTheDoor(t);
    const before = await objects();
    const noCsrf = await deliver(door.ref, { cookie: session.cookie }, doorScan());
    expect([noCsrf.statusCode, noCsrf.data.error]).toEqual([403, 'csrf_failed']);
    const noSession = await deliver(door.ref, { cookie: '' }, doorScan());
    expect(noSession.statusCode).toBe(401);
    expect(await objects()).toBe(before);
    const { rows } = await t.pool.query(
      'SELECT count(*)::int AS n FROM delivery_attempts a JOIN orders o ON o.id = a.order_id WHERE o.tracking_ref = $1',
      [door.ref],
    );
    expect(rows[0].n).toBe(0);
  });

  it('a refused scan answers its refusal and keeps no file', async () => {
    const session = await courierSession();
    const brand = await createBrandWithKey(t.deps);
    const ref = (await createOrder(t.app, brand)).data.trackingRef;
    const before = await objects();
    const answer = await deliver(ref, session, doorScan());
    expect(answer.statusCode).toBe(200);
    expect(answer.data.result).toBe('refused');
    expect(await objects()).toBe(before);
  });
});
