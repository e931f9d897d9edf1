import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createPool } from '../src/db/pool.ts';
import { createDeps } from '../src/deps.ts';
import { BENCH_OPERATOR } from './harness.ts';

/**
 * Proof of delivery: the photo upload's latency (issue #27's bench). A 3000×2000 JPEG with EXIF,
 * and a signature, sent as multipart through `POST /ops/v1/orders/{ref}/proof` (in-process
 * inject: parsing, checks, sharp's re-encoding to 1600 px without metadata, the filesystem store,
 * the door scan's transaction), one upload at a time. BENCH_PROOF_UPLOADS (default 40) uploads,
 * after 3 of warm-up (sharp's first load). Reports p50, p99 and the re-encoded size.
 */
export async function benchProofUpload(
  dbUrl: string,
  brandId: string,
  pickupAddress: string,
): Promise<string[]> {
  const count = Number(process.env.BENCH_PROOF_UPLOADS ?? 40);
  const warmUp = 3;
  const dataDir = await mkdtemp(path.join(tmpdir(), 'dlv-bench-proof-'));
  const pool = createPool(dbUrl, 4);
  const deps = createDeps(
    {
      ...loadConfig({ DATABASE_URL: dbUrl, LOG_LEVEL: 'silent', RATE_LIMIT_PER_SECOND: '0' }),
      dataDir,
      opsToken: 'bench-ops-token-0123456789abcdefgh',
    },
    pool,
  );
  const app = await buildApp(deps);
  try {
    const sharp = (await import('sharp')).default;
    // Noise, not a flat colour: a flat image compresses to nothing and would flatter the numbers.
    const noise = Buffer.alloc(3000 * 2000 * 3);
    for (let i = 0; i < noise.length; i++) noise[i] = (i * 2654435761) >>> 24;
    const photo = await sharp(noise, { raw: { width: 3000, height: 2000, channels: 3 } })
      .jpeg({ quality: 85 })
      .withExifMerge({ IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 2964/100' } })
      .toBuffer();
    const signature = await sharp({
      create: { width: 800, height: 300, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
    })
      .png()
      .toBuffer();

    const refs: string[] = [];
    for (let i = 0; i < count + warmUp; i++) {
      const order = await deps.orders.create(
        { id: brandId, defaultPickupAddress: pickupAddress },
        {
          customer_email: 'proof@example.com',
          delivery_address: '12 rue Oberkampf 75011 Paris',
          delivery_recipient: `Destinataire ${i}`,
          delivery_phone: '06 12 34 56 78',
        },
      );
      for (const status of ['picked_up', 'in_transit', 'out_for_delivery'])
        await deps.orders.setStatus(order.trackingRef, status, null, BENCH_OPERATOR);
      refs.push(order.trackingRef);
    }

    const times: number[] = [];
    for (const [i, ref] of refs.entries()) {
      const form = new FormData();
      form.append(
        'scan',
        JSON.stringify({
          id: randomUUID(),
          context: 'door',
          happened_at: new Date(Date.now() - 1000).toISOString(),
          outcome: 'delivered',
          received_by: 'Bench',
        }),
      );
      form.append('photo', new Blob([photo]), 'photo.jpg');
      form.append('signature', new Blob([signature]), 'signature.png');
      const request = new Request('http://localhost/', { method: 'POST', body: form });
      const payload = Buffer.from(await request.arrayBuffer());
      const started = performance.now();
      const res = await app.inject({
        method: 'POST',
        url: `/ops/v1/orders/${ref}/proof`,
        headers: { authorization: 'Bearer bench-ops', 'content-type': request.headers.get('content-type')! },
        payload,
      });
      const elapsed = performance.now() - started;
      if (res.statusCode !== 200 || res.json().result !== 'applied')
        throw new Error(`proof upload failed: ${res.statusCode} ${res.body}`);
      if (i >= warmUp) times.push(elapsed);
    }
    const { rows } = await pool.query<{ key: string }>(
      `SELECT a.photo_key AS key FROM delivery_attempts a JOIN orders o ON o.id = a.order_id
        WHERE o.tracking_ref = $1`,
      [refs.at(-1)],
    );
    const file = rows[0] ? await stat(path.join(dataDir, 'objects', rows[0].key)) : null;
    times.sort((a, b) => a - b);
    const at = (q: number) => times[Math.min(times.length - 1, Math.ceil(q * times.length) - 1)]!;
    return [
      `proof upload (3000×2000 JPEG ${(photo.length / 1024).toFixed(0)} KiB + signature, multipart, ops route, ` +
        `${times.length} sequential): p50 ${at(0.5).toFixed(0)} ms, p99 ${at(0.99).toFixed(0)} ms, ` +
        `max ${times.at(-1)!.toFixed(0)} ms; stored photo ${file ? (file.size / 1024).toFixed(0) : '?'} KiB (1600 px, no metadata)`,
    ];
  } finally {
    await app.close();
    await pool.end();
    await rm(dataDir, { recursive: true, force: true });
  }
}
