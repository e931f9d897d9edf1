import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import type { Clock } from '../../src/deps.ts';
import { prefixedId } from '../../src/domain/ids.ts';
import { prepareProofFiles } from '../../src/domain/proofs/proof-files.ts';
import { fsObjectStore } from '../../src/infra/object-store/fs-object-store.ts';
import { buildTestApp, createBrandWithKey, type TestApp, type TestBrand } from './app.ts';
import { testOperator } from './audit.ts';
import { createOrder } from './orders.ts';

/** An app whose proof files go to a temporary DATA_DIR, and a look into that directory's objects. */
export async function buildProofApp(clock?: Clock) {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'dlv-proof-'));
  const t = await buildTestApp({ config: { dataDir }, ...(clock ? { clock } : {}) });
  return {
    ...t,
    dataDir,
    objects: fsObjectStore(path.join(dataDir, 'objects')),
    async close() {
      await t.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export const testPhoto = () =>
  sharp({ create: { width: 64, height: 48, channels: 3, background: '#c87828' } })
    .jpeg()
    .toBuffer();
export const testSignature = () =>
  sharp({ create: { width: 120, height: 40, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0.8 } } })
    .png()
    .toBuffer();

export interface AttemptOptions {
  outcome?: 'delivered' | 'failed_attempt';
  reason?: string;
  happenedAt?: Date;
  receivedBy?: string | null;
  location?: { latitude: number; longitude: number } | null;
  photo?: boolean;
  signature?: boolean;
}

/**
 * A door attempt as the scan service records it (until its branch is merged): files prepared and
 * stored through the real services, the row inserted directly.
 */
export async function recordAttempt(t: TestApp, orderId: number, options: AttemptOptions = {}) {
  const id = prefixedId('att');
  const outcome = options.outcome ?? 'delivered';
  const files = await prepareProofFiles(
    {
      ...(options.photo !== false && outcome === 'delivered' ? { photo: await testPhoto() } : {}),
      ...(options.signature !== false && outcome === 'delivered' ? { signature: await testSignature() } : {}),
    },
    t.deps.images,
  );
  const keys = await t.deps.proofs.storeFiles(id, files);
  const location = options.location === undefined ? { latitude: 48.867, longitude: 2.363 } : options.location;
  await t.pool.query(
    `INSERT INTO delivery_attempts (id, order_id, outcome, reason, happened_at, received_by, latitude, longitude,
       photo_key, signature_key) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [
      id,
      orderId,
      outcome,
      outcome === 'failed_attempt' ? (options.reason ?? 'absent') : null,
      options.happenedAt ?? new Date(),
      options.receivedBy === undefined ? (outcome === 'delivered' ? 'Jane Doe' : null) : options.receivedBy,
      location?.latitude ?? null,
      location?.longitude ?? null,
      keys.photoKey,
      keys.signatureKey,
    ],
  );
  return { id, ...keys };
}

/** An order moved to the door (out_for_delivery) through the order service. */
export async function orderAtTheDoor(t: TestApp, brand?: TestBrand) {
  const owner = brand ?? (await createBrandWithKey(t.deps));
  const created = await createOrder(t.app, owner);
  const ref = created.data.trackingRef as string;
  for (const status of ['picked_up', 'in_transit', 'out_for_delivery'])
    await t.deps.orders.setStatus(ref, status, null, testOperator);
  const { rows } = await t.pool.query<{ id: number; tracking_token: string }>(
    'SELECT id, tracking_token FROM orders WHERE tracking_ref = $1',
    [ref],
  );
  return { brand: owner, ref, orderId: rows[0]!.id, trackingToken: rows[0]!.tracking_token };
}

/** An order delivered, with its attempt (photo and signature unless told otherwise). */
export async function deliveredOrder(t: TestApp, options: AttemptOptions & { brand?: TestBrand } = {}) {
  const order = await orderAtTheDoor(t, options.brand);
  await t.deps.orders.setStatus(order.ref, 'delivered', null, testOperator);
  const attempt = await recordAttempt(t, order.orderId, options);
  return { ...order, attempt };
}
