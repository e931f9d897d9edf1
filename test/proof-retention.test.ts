/**
 * Retention (decision 0006): 90 days after the attempt a daily job erases the files, clears the keys
 * and sets files_erased_at; the facts stay, and the order's JSON then carries them without URLs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CRONTAB } from '../src/jobs/index.ts';
import { call } from './support/app.ts';
import { buildProofApp, deliveredOrder, orderAtTheDoor, recordAttempt } from './support/proofs.ts';

const DAY = 24 * 3600 * 1000;
let now = new Date();
let t: Awaited<ReturnType<typeof buildProofApp>>;

beforeAll(async () => {
  t = await buildProofApp(() => now);
});
afterAll(async () => {
  await t?.close();
});

const row = async (id: string) =>
  (
    await t.pool.query(
      `SELECT outcome, received_by, happened_at, latitude::float8 AS latitude, photo_key, signature_key, files_erased_at
         FROM delivery_attempts WHERE id = $1`,
      [id],
    )
  ).rows[0];

describe('proof files retention', () => {
  it('is a daily job of the crontab', () => {
    expect(CRONTAB).toMatch(/^40 4 \* \* \* proof_files_erase \?max=3$/m);
  });

  it('erases the files of attempts older than 90 days and keeps the facts; younger ones untouched', async () => {
    now = new Date();
    const old = await deliveredOrder(t, { happenedAt: new Date(now.getTime() - 91 * DAY) });
    const young = await deliveredOrder(t, { happenedAt: new Date(now.getTime() - 89 * DAY) });
    // A failed attempt (no files) older than 90 days: nothing to erase, left as it is.
    const door = await orderAtTheDoor(t);
    const failed = await recordAttempt(t, door.orderId, {
      outcome: 'failed_attempt',
      happenedAt: new Date(now.getTime() - 100 * DAY),
    });
    expect(await t.objects.exists(old.attempt.photoKey!)).toBe(true);

    const result = await t.deps.proofs.eraseExpiredFiles();
    expect(result.attempts).toBeGreaterThanOrEqual(1);

    expect(await t.objects.exists(old.attempt.photoKey!)).toBe(false);
    expect(await t.objects.exists(old.attempt.signatureKey!)).toBe(false);
    const erased = await row(old.attempt.id);
    expect(erased).toMatchObject({
      outcome: 'delivered',
      received_by: 'Jane Doe',
      latitude: 48.867,
      photo_key: null,
      signature_key: null,
    });
    expect(erased.files_erased_at).toEqual(now);

    expect(await t.objects.exists(young.attempt.photoKey!)).toBe(true);
    expect((await row(young.attempt.id)).files_erased_at).toBeNull();
    expect((await row(failed.id)).files_erased_at).toBeNull();

    // The order still says it was delivered, when, to whom and where; no links any more.
    const detail = await call(t.app, {
      method: 'GET',
      url: `/public/v1/orders/${old.ref}`,
      headers: old.brand.headers,
    });
    expect(detail.data.order.proof_of_delivery).toEqual({
      delivered_at: new Date(now.getTime() - 91 * DAY).toISOString(),
      received_by: 'Jane Doe',
      photo_url: null,
      signature_url: null,
      location: { latitude: 48.867, longitude: 2.363 },
    });
  });

  it('is idempotent: a second run erases nothing and changes no date', async () => {
    now = new Date();
    const old = await deliveredOrder(t, { happenedAt: new Date(now.getTime() - 120 * DAY) });
    await t.deps.proofs.eraseExpiredFiles();
    const first = await row(old.attempt.id);
    now = new Date(now.getTime() + 60_000);
    expect(await t.deps.proofs.eraseExpiredFiles()).toEqual({ attempts: 0, files: 0 });
    expect((await row(old.attempt.id)).files_erased_at).toEqual(first.files_erased_at);
    now = new Date();
  });

  it('finishes a run cut short: keys whose objects are already gone are cleared', async () => {
    now = new Date();
    const old = await deliveredOrder(t, { happenedAt: new Date(now.getTime() - 95 * DAY) });
    await t.objects.delete(old.attempt.photoKey!);
    await t.deps.proofs.eraseExpiredFiles();
    expect(await row(old.attempt.id)).toMatchObject({ photo_key: null, signature_key: null });
    expect(await t.objects.exists(old.attempt.signatureKey!)).toBe(false);
  });

  it('works in batches: more attempts than one batch are all erased in one run', async () => {
    now = new Date();
    const door = await orderAtTheDoor(t);
    const ids: string[] = [];
    for (let i = 0; i < 105; i++) {
      const attempt = await recordAttempt(t, door.orderId, {
        outcome: 'delivered',
        happenedAt: new Date(now.getTime() - (200 + i) * DAY),
        signature: false,
      });
      ids.push(attempt.id);
    }
    await t.deps.proofs.eraseExpiredFiles();
    const { rows } = await t.pool.query(
      'SELECT count(*)::int AS n FROM delivery_attempts WHERE id = ANY($1) AND files_erased_at IS NOT NULL',
      [ids],
    );
    expect(rows[0].n).toBe(105);
  });
});
