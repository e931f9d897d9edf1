import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pickupIdFor } from '../src/domain/pickups/pickup-day.ts';
import { Browser, createUser, PASSWORD } from './support/account-browser.ts';
import { buildTestApp, createBrandWithKey, TEST_PICKUP_ADDRESS, type TestApp } from './support/app.ts';
import { testOperator } from './support/audit.ts';

/** The account area's pickups page: upcoming and recent pickups, the missing parcels, manifests, the request form. */
let t: TestApp;
let ipCounter = 0;
let now = new Date('2026-11-24T09:00:00Z'); // Tuesday 10:00 Paris

beforeAll(async () => {
  t = await buildTestApp({ clock: () => now });
});
afterAll(() => t.close());

async function signedIn(brandId: string, role: 'owner' | 'developer' | 'finance' = 'owner') {
  const user = await createUser(t.deps, { brandId, role });
  const b = new Browser(t.app, `10.7.0.${++ipCounter}`);
  expect((await b.signIn(user.email, PASSWORD)).status).toBe(303);
  return b;
}

async function ordersFor(brandId: string, n: number): Promise<string[]> {
  const refs: string[] = [];
  for (let i = 0; i < n; i++) {
    const order = await t.deps.orders.create(
      { id: brandId, defaultPickupAddress: TEST_PICKUP_ADDRESS },
      {
        customer_email: 'c@example.com',
        delivery_address: '12 rue Oberkampf 75011 Paris',
        reference: `W-${i}`,
      },
    );
    refs.push(order.trackingRef);
  }
  return refs;
}

describe('the pickups page', () => {
  it('shows a pickup closed with 2 of 5 missing, the missing parcels highlighted, and its manifest', async () => {
    const { brandId } = await createBrandWithKey(t.deps, { name: 'Atelier Pickups' });
    now = new Date('2026-11-24T09:00:00Z');
    const refs = await ordersFor(brandId, 5);
    now = new Date('2026-11-24T15:00:00Z');
    const id = pickupIdFor(brandId, TEST_PICKUP_ADDRESS, '2026-11-24');
    await t.deps.pickups.close(id, refs.slice(0, 3), testOperator);
    const b = await signedIn(brandId);

    const page = await b.get('/account/pickups?lang=en');
    expect(page.status).toBe(200);
    expect(page.body).toContain('<a href="/account/pickups">Pickups</a>');
    expect(page.body).toContain('Partly collected');
    expect(page.body).toContain('2 parcel(s) not collected: they join the next pickup.');
    const missingList = page.body.match(/<ul class="missing-refs">([\s\S]*?)<\/ul>/)?.[1] ?? '';
    expect([...missingList.matchAll(/<code>(DLV-[0-9A-Z]{10})<\/code>/g)].map((m) => m[1])).toEqual(
      refs.slice(3),
    );
    expect(page.body).toContain(`href="/account/pickups/${id}/manifest"`);
    // Wednesday's pickup, upcoming, holds the two.
    const next = pickupIdFor(brandId, TEST_PICKUP_ADDRESS, '2026-11-25');
    expect(page.body).toContain(`/account/pickups/${next}/manifest`);

    const fr = await b.get('/account/pickups?lang=fr');
    expect(fr.body).toContain('Enlevé en partie');
    expect(fr.body).toContain('2 colis non enlevé(s)');

    const manifest = await b.get(`/account/pickups/${id}/manifest`);
    expect(manifest.status).toBe(200);
    expect(manifest.headers['content-type']).toBe('application/pdf');
  });

  it('asks for a collection without JavaScript (CSRF, post/redirect/get); a refused day is said under its field', async () => {
    const { brandId } = await createBrandWithKey(t.deps);
    const b = await signedIn(brandId);
    now = new Date('2026-11-24T09:00:00Z');
    const form = await b.get('/account/pickups?lang=en');
    expect(form.body).toContain('name="date"');

    const weekend = await b.submit('/account/pickups?lang=en', '/account/pickups', {
      date: '2026-11-28',
      window_start: '14:00',
      window_end: '18:00',
    });
    expect(weekend.status).toBe(400);
    expect(weekend.body).toContain(
      'Not a business day (weekend or public holiday); the next one is 2026-11-30.',
    );
    expect(weekend.body).toMatch(/id="date"[^>]*aria-invalid="true"/);
    const badWindow = await b.submit('/account/pickups?lang=fr', '/account/pickups', {
      date: '2026-11-25',
      window_start: '14:00',
      window_end: '15:00',
    });
    expect(badWindow.status).toBe(400);
    expect(badWindow.body).toMatch(/id="window_end"[^>]*aria-invalid="true"/);
    const stored = async () =>
      (await t.pool.query('SELECT count(*)::int AS n FROM pickups WHERE brand_id = $1', [brandId])).rows[0].n;
    expect(await stored()).toBe(0);

    const noCsrf = await b.post('/account/pickups', { date: '2026-11-25' });
    expect(noCsrf.status).toBe(403);
    expect(await stored()).toBe(0);

    const asked = await b.submit('/account/pickups?lang=en', '/account/pickups', {
      date: '2026-11-25',
      window_start: '09:00',
      window_end: '12:00',
    });
    expect(asked.status).toBe(303);
    const shown = await b.follow(asked);
    expect(shown.body).toContain('Collection asked for');
    expect(shown.body).toContain('09:00–12:00');
    expect(await stored()).toBe(1);
  });

  it("finance people see pickups but cannot ask; another brand's manifest is the 404 page", async () => {
    const { brandId } = await createBrandWithKey(t.deps);
    const other = await createBrandWithKey(t.deps);
    now = new Date('2026-11-24T09:00:00Z');
    await ordersFor(other.brandId, 1);
    const finance = await signedIn(brandId, 'finance');
    const page = await finance.get('/account/pickups?lang=en');
    expect(page.status).toBe(200);
    expect(page.body).not.toContain('action="/account/pickups"');
    expect(page.body).toContain('Your role can see pickups but not ask for them.');
    const foreign = await finance.get(
      `/account/pickups/${pickupIdFor(other.brandId, TEST_PICKUP_ADDRESS, '2026-11-24')}/manifest`,
    );
    expect(foreign.status).toBe(404);
    const mine = await signedIn(other.brandId);
    const pdf = await mine.get(
      `/account/pickups/${pickupIdFor(other.brandId, TEST_PICKUP_ADDRESS, '2026-11-24')}/manifest`,
    );
    expect(pdf.status).toBe(200);
  });
});
