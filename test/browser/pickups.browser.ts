import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pickupDateFor, pickupIdFor } from '../../src/domain/pickups/pickup-day.ts';
import { createUser } from '../support/account-browser.ts';
import { TEST_PICKUP_ADDRESS } from '../support/app.ts';
import { testOperator } from '../support/audit.ts';
import { hasChromium, newPage, openStage, type Stage, shoot, signIn } from './support.ts';

/** The pickups page in a real browser: a closed pickup's missing parcel, its manifest PDF, a request. */
let stage: Stage;
// The app's clock runs with the machine's, moved forward once the orders exist, to the afternoon of
// their pickup's day (a pickup can be closed only from 12:00 Paris that day).
let offset = 0;

describe.skipIf(!hasChromium)('account pickups (Chromium)', () => {
  beforeAll(async () => {
    stage = await openStage({ clock: () => new Date(Date.now() + offset) });
  });
  afterAll(() => stage?.close());

  it('shows the parcel the courier did not scan, highlighted, and opens the manifest', async () => {
    const owner = await createUser(stage.t.deps, { role: 'owner' });
    const { deps } = stage.t;
    const brand = { id: owner.brandId, defaultPickupAddress: TEST_PICKUP_ADDRESS };
    const refs: string[] = [];
    for (let i = 0; i < 3; i++) {
      const order = await deps.orders.create(brand, {
        customer_email: 'c@example.com',
        delivery_address: '12 rue Oberkampf 75011 Paris',
        reference: `B-${i}`,
      });
      refs.push(order.trackingRef);
    }
    const day = pickupDateFor(new Date());
    // 16:00 in Paris on that day (15:00 UTC in winter, 14:00 in summer: 15:00 UTC is 16:00 or 17:00).
    offset = Date.parse(`${day}T15:00:00Z`) - Date.now();
    const id = pickupIdFor(owner.brandId, TEST_PICKUP_ADDRESS, day);
    const closed = await deps.pickups.close(id, refs.slice(0, 2), testOperator);
    expect(closed.status).toBe('partially_collected');

    const page = await newPage(stage);
    await signIn(page, stage, owner.email);
    await page.click('nav a[href="/account/pickups"]');
    await page.waitForURL(`${stage.origin}/account/pickups`);
    const row = page.locator('table.pickups tr.has-missing');
    expect(await row.count()).toBe(1);
    expect(await row.locator('.badge').textContent()).toBe('Partly collected');
    expect(await row.locator('p.missing').textContent()).toBe(
      '1 parcel(s) not collected: they join the next pickup.',
    );
    expect(await row.locator('ul.missing-refs code').allTextContents()).toEqual([refs[2]]);
    // Highlighted: the missing note is in the danger colour, the row tinted.
    const colour = await row
      .locator('p.missing')
      .evaluate((el) => el.ownerDocument.defaultView!.getComputedStyle(el).color);
    expect(colour).not.toBe(
      await page.locator('h1').evaluate((el) => el.ownerDocument.defaultView!.getComputedStyle(el).color),
    );
    await shoot(page, 'account-pickups');

    const [pdf] = await Promise.all([
      // It opens in a new tab: the context sees that tab's response.
      page.context().waitForEvent('response', (r) => r.url().endsWith(`/account/pickups/${id}/manifest`)),
      row.locator(`a[href="/account/pickups/${id}/manifest"]`).click(),
    ]);
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()['content-type']).toBe('application/pdf');
    // Chromium shows it in its PDF viewer; the bytes, fetched with the page's session, are a PDF.
    const bytes = await page.request.get(`${stage.origin}/account/pickups/${id}/manifest`);
    expect((await bytes.body()).subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('asks for a collection with the form, without JavaScript', async () => {
    const owner = await createUser(stage.t.deps, { role: 'owner' });
    await stage.t.deps.brands.updateCompany(
      owner.brandId,
      {
        legalName: '',
        billingAddress: '',
        siren: '',
        vatNumber: '',
        pickupAddress: TEST_PICKUP_ADDRESS,
      },
      testOperator,
    );
    const context = await stage.browser.newContext({ javaScriptEnabled: false, locale: 'en-GB' });
    const page = await context.newPage();
    await signIn(page, stage, owner.email);
    await page.goto(`${stage.origin}/account/pickups`);
    const date = await page.inputValue('#date');
    await page.fill('#window_start', '09:00');
    await page.fill('#window_end', '12:00');
    await Promise.all([page.waitForURL(/asked=/), page.click('main form button[type=submit]')]);
    expect(await page.textContent('main')).toContain('Collection asked for');
    expect(await page.textContent('table.pickups')).toContain('09:00–12:00');
    expect(date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    await shoot(page, 'account-pickups-asked');
    await context.close();
  });
});
