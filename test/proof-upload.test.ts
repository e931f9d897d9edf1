/**
 * POST /ops/v1/orders/{ref}/proof (decision 0006): multipart → files checked and re-encoded →
 * stored → the door scan applied through the scan service; a refusal (or an error, or a replay)
 * leaves no file behind, and a refused request no row.
 */
import { randomUUID } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call, createBrandWithKey } from './support/app.ts';
import { createOrder } from './support/orders.ts';
import { orderAtTheDoor, testSignature } from './support/proofs.ts';

const OPS = { authorization: 'Bearer test-ops-token-0123456789abcdefgh' };
let t: Awaited<ReturnType<typeof buildTestApp>> & { dataDir: string };

beforeAll(async () => {
  const { mkdtemp } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const dataDir = await mkdtemp(path.join(tmpdir(), 'dlv-proof-upload-'));
  t = Object.assign(
    await buildTestApp({ config: { dataDir, opsToken: 'test-ops-token-0123456789abcdefgh' } }),
    { dataDir },
  );
});
afterAll(async () => {
  await t?.close();
  const { rm } = await import('node:fs/promises');
  await rm(t.dataDir, { recursive: true, force: true });
});

/** Every object file under DATA_DIR/objects (the filesystem store). */
async function storedObjects(): Promise<string[]> {
  const root = path.join(t.dataDir, 'objects');
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile() && !e.name.endsWith('.content-type')).map((e) => e.name);
}

const gpsPhoto = () =>
  sharp({ create: { width: 2400, height: 1800, channels: 3, background: '#5080b0' } })
    .jpeg()
    .withExifMerge({
      IFD0: { Make: 'PhoneMaker' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '48/1 51/1 2964/100',
        GPSLongitudeRef: 'E',
        GPSLongitude: '2/1 17/1 4020/100',
      },
    })
    .toBuffer();

const doorScan = (overrides: Record<string, unknown> = {}) => ({
  id: randomUUID(),
  context: 'door',
  happened_at: new Date(Date.now() - 60_000).toISOString(),
  outcome: 'delivered',
  received_by: 'Camille',
  location: { latitude: 48.86712, longitude: 2.36345 },
  ...overrides,
});

async function upload(
  ref: string,
  parts: {
    scan?: unknown;
    scanText?: string;
    photo?: Buffer;
    signature?: Buffer;
    extra?: [string, Buffer][];
  },
) {
  const form = new FormData();
  if (parts.scanText !== undefined) form.append('scan', parts.scanText);
  else if (parts.scan !== undefined) form.append('scan', JSON.stringify(parts.scan));
  if (parts.photo) form.append('photo', new Blob([parts.photo]), 'photo.jpg');
  if (parts.signature) form.append('signature', new Blob([parts.signature]), 'signature.png');
  for (const [name, bytes] of parts.extra ?? []) form.append(name, new Blob([bytes]), `${name}.bin`);
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return call(t.app, {
    method: 'POST',
    url: `/ops/v1/orders/${ref}/proof`,
    headers: { ...OPS, 'content-type': request.headers.get('content-type')! },
    payload: Buffer.from(await request.arrayBuffer()),
  });
}

const attemptsOf = async (ref: string) =>
  (
    await t.pool.query(
      `SELECT a.* , a.latitude::float8 AS lat FROM delivery_attempts a JOIN orders o ON o.id = a.order_id WHERE o.tracking_ref = $1`,
      [ref],
    )
  ).rows;
const scanRow = async (id: string) =>
  (await t.pool.query('SELECT result, problem FROM scans WHERE id = $1', [id])).rows[0];

describe('POST /ops/v1/orders/{ref}/proof', () => {
  it('stores the re-encoded files, applies the door scan and shows the proof, with no EXIF left', async () => {
    const door = await orderAtTheDoor(t);
    const scan = doorScan();
    const answer = await upload(door.ref, {
      scan,
      photo: await gpsPhoto(),
      signature: await testSignature(),
    });
    expect(answer.statusCode).toBe(200);
    expect(answer.data).toEqual({
      id: scan.id,
      result: 'applied',
      tracking_ref: door.ref,
      status: 'delivered',
      problem: null,
    });
    const [attempt] = await attemptsOf(door.ref);
    expect(attempt).toMatchObject({
      outcome: 'delivered',
      received_by: 'Camille',
      lat: 48.867,
      scan_id: scan.id,
    });
    expect(attempt.photo_key).toMatch(/^proofs\/\d{4}\/\d{2}\/[0-9a-f]{16}\/photo\.jpg$/);
    expect(attempt.signature_key).toMatch(/\/signature\.png$/);
    // The audit trail: the door scan by the operator's credential, who took the parcel not in it.
    const { rows: audit } = await t.pool.query(
      'SELECT actor_kind, action, order_refs, changes, details FROM audit_events WHERE object_id = $1',
      [scan.id],
    );
    expect(audit).toEqual([
      {
        actor_kind: 'bootstrap',
        action: 'scan.recorded',
        order_refs: [door.ref],
        changes: { status: { before: 'out_for_delivery', after: 'delivered' } },
        details: expect.objectContaining({ context: 'door', outcome: 'delivered', courier_id: null }),
      },
    ]);
    expect(JSON.stringify(audit)).not.toContain('Camille');

    const detail = await call(t.app, {
      method: 'GET',
      url: `/public/v1/orders/${door.ref}`,
      headers: door.brand.headers,
    });
    const photo = await t.app.inject({
      method: 'GET',
      url: detail.data.order.proof_of_delivery.photo_url.replace(/^https?:\/\/[^/]+/, ''),
    });
    expect(photo.statusCode).toBe(200);
    const meta = await sharp(photo.rawPayload).metadata();
    expect([meta.format, meta.width, meta.height, meta.exif]).toEqual(['jpeg', 1600, 1200, undefined]);
    expect(photo.rawPayload.includes(Buffer.from('PhoneMaker'))).toBe(false);
  });

  it('a refused scan (order not at the door) leaves no file and no attempt; its refusal is answered', async () => {
    const brand = await createBrandWithKey(t.deps);
    const ref = (await createOrder(t.app, brand)).data.trackingRef;
    const before = await storedObjects();
    const scan = doorScan();
    const answer = await upload(ref, { scan, photo: await gpsPhoto(), signature: await testSignature() });
    expect(answer.statusCode).toBe(200);
    expect(answer.data).toMatchObject({ result: 'refused', problem: { code: 'invalid_transition' } });
    expect(await storedObjects()).toEqual(before);
    expect(await attemptsOf(ref)).toEqual([]);
  });

  it('sent again with the same scan id: the stored answer, and the second copy of the files is not kept', async () => {
    const door = await orderAtTheDoor(t);
    const scan = doorScan();
    const first = await upload(door.ref, { scan, photo: await gpsPhoto() });
    const after = await storedObjects();
    const again = await upload(door.ref, { scan, photo: await gpsPhoto() });
    expect(again.data).toEqual(first.data);
    expect(await storedObjects()).toEqual(after);
    expect(await attemptsOf(door.ref)).toHaveLength(1);
  });

  it('checks every file before writing anything: a bad signature refuses the pair (415), nothing stored', async () => {
    const door = await orderAtTheDoor(t);
    const before = await storedObjects();
    const scan = doorScan();
    const gif = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#000' } })
      .gif()
      .toBuffer();
    const answer = await upload(door.ref, { scan, photo: await gpsPhoto(), signature: gif });
    expect(answer.statusCode).toBe(415);
    expect(answer.data).toMatchObject({ error: 'unsupported_media_type', details: [{ field: 'signature' }] });
    expect(await storedObjects()).toEqual(before);
    expect(await scanRow(scan.id)).toBeUndefined();
    expect(await attemptsOf(door.ref)).toEqual([]);
  });

  it('refuses a corrupt photo (422), a file over 10 MB (413), three files (413), nothing stored', async () => {
    const door = await orderAtTheDoor(t);
    const before = await storedObjects();
    const corrupt = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(2000, 7)]);
    const a = await upload(door.ref, { scan: doorScan(), photo: corrupt });
    expect([a.statusCode, a.data.error, a.data.details?.[0]?.field]).toEqual([
      422,
      'unreadable_image',
      'photo',
    ]);
    const big = Buffer.alloc(10 * 1024 * 1024 + 10, 1);
    big.set([0xff, 0xd8, 0xff]);
    const b = await upload(door.ref, { scan: doorScan(), photo: big });
    expect([b.statusCode, b.data.error, b.data.details?.[0]?.field]).toEqual([
      413,
      'payload_too_large',
      'photo',
    ]);
    const png = await testSignature();
    const c = await upload(door.ref, {
      scan: doorScan(),
      photo: png,
      signature: png,
      extra: [['photo', png]],
    });
    expect(c.statusCode).toBe(413);
    expect(await storedObjects()).toEqual(before);
    expect(await attemptsOf(door.ref)).toEqual([]);
  });

  it('names what is wrong with the request: no scan, bad JSON, a bad field, an unknown part, not multipart', async () => {
    const door = await orderAtTheDoor(t);
    const png = await testSignature();
    const noScan = await upload(door.ref, { photo: png });
    expect([noScan.statusCode, noScan.data.details?.[0]?.field]).toEqual([400, 'scan']);
    const badJson = await upload(door.ref, { scanText: '{not json' });
    expect([badJson.statusCode, badJson.data.message]).toEqual([400, 'scan: must be JSON']);
    const badField = await upload(door.ref, { scan: doorScan({ happened_at: 'yesterday' }), photo: png });
    expect(badField.statusCode).toBe(400);
    expect(badField.data.details[0].field).toBe('scan.happened_at');
    const hub = await upload(door.ref, {
      scan: doorScan({ context: 'hub', outcome: undefined, received_by: undefined }),
    });
    expect([hub.statusCode, hub.data.details?.[0]?.field]).toEqual([400, 'scan.context']);
    const unknown = await upload(door.ref, { scan: doorScan(), extra: [['manifest', png]] });
    expect([unknown.statusCode, unknown.data.details?.[0]?.field]).toEqual([400, 'manifest']);
    const json = await call(t.app, {
      method: 'POST',
      url: `/ops/v1/orders/${door.ref}/proof`,
      headers: OPS,
      payload: { scan: doorScan() },
    });
    expect(json.statusCode).toBe(415);
    expect(await attemptsOf(door.ref)).toEqual([]);
  });

  it('refuses NUL and unpaired surrogates in the scan (400 naming the field), storing nothing', async () => {
    const door = await orderAtTheDoor(t);
    const before = await storedObjects();
    const png = await testSignature();
    for (const receivedBy of ['Cam\u0000ille', 'Cam\ud800ille']) {
      const answer = await upload(door.ref, { scan: doorScan({ received_by: receivedBy }), signature: png });
      expect([answer.statusCode, answer.data.details?.[0]?.field]).toEqual([400, 'scan.received_by']);
    }
    expect(await attemptsOf(door.ref)).toEqual([]);
    expect(await storedObjects()).toEqual(before);
  });

  it('never takes object keys from the request: a photo_key sent in the scan is ignored', async () => {
    const door = await orderAtTheDoor(t);
    const answer = await upload(door.ref, {
      scan: doorScan({ photo_key: 'proofs/2026/01/other/photo.jpg', signature_key: 'x/y.png' }),
    });
    expect(answer.data.result).toBe('applied');
    const [attempt] = await attemptsOf(door.ref);
    expect([attempt.photo_key, attempt.signature_key]).toEqual([null, null]);
  });

  it('needs the operator token', async () => {
    const door = await orderAtTheDoor(t);
    const answer = await call(t.app, {
      method: 'POST',
      url: `/ops/v1/orders/${door.ref}/proof`,
      headers: door.brand.headers,
    });
    expect(answer.statusCode).toBe(401);
  });
});
