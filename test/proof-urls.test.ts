/**
 * Proof files only behind signed, expiring URLs (decision 0006): valid, expired, forged, for another
 * attempt or kind, after erasure — and every refusal the same 404.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from './support/app.ts';
import { buildProofApp, deliveredOrder } from './support/proofs.ts';

let now = new Date();
let t: Awaited<ReturnType<typeof buildProofApp>>;

beforeAll(async () => {
  t = await buildProofApp(() => now);
});
afterAll(async () => {
  await t?.close();
});

const pathOf = (url: string) => url.replace(/^https?:\/\/[^/]+/, '');

async function detail(ref: string, headers: { authorization: string }) {
  const answer = await call(t.app, { method: 'GET', url: `/public/v1/orders/${ref}`, headers });
  expect(answer.statusCode).toBe(200);
  return answer.data.order;
}

async function expectSame404(url: string) {
  const answer = await call(t.app, { method: 'GET', url });
  expect(answer.statusCode).toBe(404);
  expect(answer.data).toMatchObject({
    ok: false,
    error: 'not_found',
    message: 'No such file, or its link has expired.',
  });
  expect(answer.headers['cache-control']).toBe('no-store');
  return answer;
}

describe('signed proof URLs', () => {
  it('serves the photo and the signature through the URLs of the order detail, 15 minutes, private', async () => {
    now = new Date();
    const { ref, brand } = await deliveredOrder(t);
    const order = await detail(ref, brand.headers);
    const photoUrl = order.proof_of_delivery.photo_url as string;
    expect(photoUrl).toMatch(
      /^http:\/\/127\.0\.0\.1:3000\/proofs\/att_[0-9a-f]{16}\/photo\?expires=\d+&sig=[\w-]{43}$/,
    );
    const expires = Number(new URL(photoUrl).searchParams.get('expires'));
    expect(expires - Math.floor(now.getTime() / 1000)).toBe(15 * 60);

    const photo = await t.app.inject({ method: 'GET', url: pathOf(photoUrl) });
    expect(photo.statusCode).toBe(200);
    expect(photo.headers['content-type']).toBe('image/jpeg');
    expect(photo.headers['x-content-type-options']).toBe('nosniff');
    expect(photo.headers['cache-control']).toBe('private, max-age=900');
    expect((await sharp(photo.rawPayload).metadata()).format).toBe('jpeg');

    const signature = await t.app.inject({
      method: 'GET',
      url: pathOf(order.proof_of_delivery.signature_url),
    });
    expect(signature.statusCode).toBe(200);
    expect(signature.headers['content-type']).toBe('image/png');
  });

  it('bounds the browser cache by what the link has left, and refuses it once expired', async () => {
    const start = new Date();
    now = start;
    const { ref, brand } = await deliveredOrder(t);
    const url = pathOf((await detail(ref, brand.headers)).proof_of_delivery.photo_url);
    now = new Date(start.getTime() + 14 * 60 * 1000);
    const late = await t.app.inject({ method: 'GET', url });
    expect(late.statusCode).toBe(200);
    expect(late.headers['cache-control']).toBe('private, max-age=60');
    now = new Date(start.getTime() + 15 * 60 * 1000);
    await expectSame404(url);
    now = new Date();
  });

  it('refuses forged links: another signature, a changed expiry, another attempt, the other kind', async () => {
    now = new Date();
    const one = await deliveredOrder(t);
    const other = await deliveredOrder(t);
    const url = new URL((await detail(one.ref, one.brand.headers)).proof_of_delivery.photo_url);
    const [, , attemptId] = url.pathname.split('/');
    const expires = url.searchParams.get('expires')!;
    const sig = url.searchParams.get('sig')!;
    const flipped = (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1);

    await expectSame404(`/proofs/${attemptId}/photo?expires=${expires}&sig=${flipped}`);
    await expectSame404(`/proofs/${attemptId}/photo?expires=${Number(expires) + 3600}&sig=${sig}`);
    await expectSame404(`/proofs/${other.attempt.id}/photo?expires=${expires}&sig=${sig}`);
    await expectSame404(`/proofs/${attemptId}/signature?expires=${expires}&sig=${sig}`);
    await expectSame404(`/proofs/${attemptId}/photo?expires=${expires}`);
    await expectSame404(`/proofs/${attemptId}/photo`);
    await expectSame404(`/proofs/${attemptId}/photo?expires=${expires}&sig=${sig}&sig=${sig}`);
    await expectSame404(`/proofs/${attemptId}/manifest?expires=${expires}&sig=${sig}`);
    await expectSame404(`/proofs/att_zzzz/photo?expires=${expires}&sig=${sig}`);
    // Far in the future, even signed (the key is ours alone, but no link lives beyond 7 days).
    await expectSame404(`/proofs/${attemptId}/photo?expires=99999999999&sig=${sig}`);
    // The genuine one still works.
    expect((await t.app.inject({ method: 'GET', url: url.pathname + url.search })).statusCode).toBe(200);
  });

  it('refuses a valid link once the file is erased, with the same 404', async () => {
    now = new Date();
    const { ref, brand, attempt } = await deliveredOrder(t);
    const url = pathOf((await detail(ref, brand.headers)).proof_of_delivery.photo_url);
    await t.objects.delete(attempt.photoKey!);
    await expectSame404(url);
  });

  it('makes unguessable ids: 16 random hex digits', async () => {
    const a = await deliveredOrder(t);
    const b = await deliveredOrder(t);
    expect(a.attempt.id).toMatch(/^att_[0-9a-f]{16}$/);
    expect(a.attempt.id).not.toBe(b.attempt.id);
  });
});
