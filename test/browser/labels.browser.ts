import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../support/account-browser.ts';
import { TEST_PICKUP_ADDRESS } from '../support/app.ts';
import { hasChromium, newPage, openStage, type Stage, shoot, signIn } from './support.ts';

/** Labels from the orders page: tick orders, print, and the PDF opens in a new tab. */
let stage: Stage;

describe.skipIf(!hasChromium)('printing labels (Chromium)', () => {
  beforeAll(async () => {
    stage = await openStage();
  });
  afterAll(() => stage?.close());

  it('selects orders on the orders page and opens their labels as a PDF', async () => {
    const owner = await createUser(stage.t.deps, { role: 'owner' });
    const refs: string[] = [];
    for (const recipient of ['Jeanne Martin', 'Paul Durand', 'Amina Diallo']) {
      const order = await stage.t.deps.orders.create(
        { id: owner.brandId, defaultPickupAddress: TEST_PICKUP_ADDRESS },
        {
          customer_email: 'client@example.com',
          delivery_address: '12 rue Oberkampf 75011 Paris',
          delivery_recipient: recipient,
        },
      );
      refs.push(order.trackingRef);
    }
    const page = await newPage(stage);
    await signIn(page, stage, owner.email);
    await page.goto(`${stage.origin}/account/orders`);
    await page.check(`input[type=checkbox][value="${refs[0]}"]`);
    await page.check(`input[type=checkbox][value="${refs[2]}"]`);
    await shoot(page, 'account-labels-selected');
    const context = page.context();
    // Chromium shows a PDF in its viewer, whose page replaces the body a response reports: the
    // bytes are read on their way through (the request and the answer are the server's own).
    let pdf: Buffer = Buffer.alloc(0);
    await context.route('**/account/labels', async (route) => {
      const answer = await route.fetch();
      pdf = await answer.body();
      await route.fulfill({ response: answer, body: pdf });
    });
    const [response] = await Promise.all([
      context.waitForEvent(
        'response',
        (r) => r.url().endsWith('/account/labels') && r.request().method() === 'POST',
      ),
      context.waitForEvent('page'),
      page.click('form#labels button[type=submit]'),
    ]);
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toBe('application/pdf');
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.toString('latin1').match(/\/Type \/Page\b/g)).toHaveLength(2);
    const { rows } = await stage.t.pool.query<{ tracking_ref: string }>(
      'SELECT tracking_ref FROM orders WHERE brand_id = $1 AND labelled_at IS NOT NULL ORDER BY tracking_ref',
      [owner.brandId],
    );
    expect(rows.map((r) => r.tracking_ref)).toEqual([refs[0], refs[2]].sort());
  });
});
