import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser, createUser, csrfOf, PASSWORD } from './support/account-browser.ts';
import { buildTestApp, createBrandWithKey, TEST_PICKUP_ADDRESS, type TestApp } from './support/app.ts';

/** Labels from the account area: the orders page's selection, an order's "Print label", the refusals. */
let t: TestApp;
let ipCounter = 0;

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

async function signedIn(brandId: string) {
  const user = await createUser(t.deps, { brandId });
  const b = new Browser(t.app, `10.26.0.${++ipCounter}`);
  expect((await b.signIn(user.email, PASSWORD)).status).toBe(303);
  return b;
}

async function orderFor(brandId: string, body: Record<string, unknown> = {}) {
  const order = await t.deps.orders.create(
    { id: brandId, defaultPickupAddress: TEST_PICKUP_ADDRESS },
    {
      customer_email: 'client@example.com',
      delivery_address: '12 rue Oberkampf 75011 Paris',
      delivery_recipient: 'Jeanne Martin',
      ...body,
    },
  );
  return order.trackingRef;
}

const labelledAt = async (ref: string) =>
  (
    await t.pool.query<{ labelled_at: Date | null }>(
      'SELECT labelled_at FROM orders WHERE tracking_ref = $1',
      [ref],
    )
  ).rows[0]!.labelled_at;

describe('printing labels from the account area', () => {
  let brandId: string;
  let b: Browser;
  let first: string;
  let second: string;
  let awaiting: string;

  beforeAll(async () => {
    brandId = (await createBrandWithKey(t.deps, { name: 'Étiquettes' })).brandId;
    b = await signedIn(brandId);
    first = await orderFor(brandId);
    second = await orderFor(brandId, { quantity: 2 });
    awaiting = await orderFor(brandId, { delivery_address: null });
  });

  it('lists the orders with a checkbox each inside a print form that opens a new tab', async () => {
    const page = await b.get('/account/orders');
    expect(page.status).toBe(200);
    expect(page.body).toMatch(/<form id="labels" method="post" action="\/account\/labels" target="_blank"/);
    for (const ref of [first, second, awaiting])
      expect(page.body).toContain(`<input type="checkbox" name="ref" value="${ref}" form="labels"`);
    expect(page.body).toContain('Print labels');
    expect(page.body).toContain('<option value="zpl">');
  });

  it('prints the selected orders as one PDF, one page per parcel', async () => {
    const page = await b.get('/account/orders');
    const res = await b.post('/account/labels', {
      _csrf: csrfOf(page.body),
      ref: [first, second],
      format: 'pdf',
      size: 'a6',
    });
    expect(res.status, res.body.slice(0, 300)).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe('inline; filename="labels-2.pdf"');
    expect(res.body.startsWith('%PDF-')).toBe(true);
    expect(res.body.match(/\/Type \/Page\b/g)).toHaveLength(3);
    expect(await labelledAt(first)).toBeInstanceOf(Date);
  });

  it('downloads ZPL', async () => {
    const page = await b.get('/account/orders');
    const res = await b.post('/account/labels', {
      _csrf: csrfOf(page.body),
      ref: first,
      format: 'zpl',
      size: '4x6',
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="label-${first}.zpl"`);
    expect(res.body).toContain('^XA');
  });

  it('says why nothing was printed when an order cannot be collected, or none is ticked', async () => {
    const other = await orderFor(brandId);
    const page = await b.get('/account/orders');
    const refused = await b.post('/account/labels', { _csrf: csrfOf(page.body), ref: [other, awaiting] });
    expect(refused.status).toBe(422);
    expect(refused.headers['content-type']).toContain('text/html');
    expect(refused.body).toContain(`Nothing was printed: ${awaiting} cannot be collected`);
    expect(await labelledAt(other)).toBeNull();

    const none = await b.post('/account/labels', { _csrf: csrfOf(page.body), format: 'pdf' });
    expect(none.status).toBe(400);
    expect(none.body).toContain('tick at least one order');
  });

  it('refuses a post without its CSRF token, printing nothing', async () => {
    const other = await orderFor(brandId);
    const res = await b.post('/account/labels', { ref: other });
    expect(res.status).toBe(403);
    expect(await labelledAt(other)).toBeNull();
  });

  it('has "Print label" on an order page, and explains its absence for an order without address', async () => {
    const page = await b.get(`/account/orders/${second}`);
    expect(page.body).toMatch(
      new RegExp(
        `<form method="post" action="/account/orders/${second}/label" target="_blank" class="labels"><input type="hidden" name="_csrf"`,
      ),
    );
    expect(page.body).toContain('Print label');
    const print = (ref: string, fields: Record<string, string>) =>
      b.post(`/account/orders/${ref}/label`, { _csrf: csrfOf(page.body), ...fields });
    const res = await print(second, { format: 'pdf', size: '4x6' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.body.match(/\/Type \/Page\b/g)).toHaveLength(2);
    expect(await labelledAt(second)).toBeInstanceOf(Date);
    const without = await b.get(`/account/orders/${awaiting}`);
    expect(without.body).not.toContain('Print label');
    expect(without.body).toContain('No label: an order can be collected');
    const direct = await print(awaiting, {});
    expect(direct.status).toBe(422);
    const bad = await print(second, { format: 'png' });
    expect(bad.status).toBe(400);
  });

  // #36 item 5: the label's address was a GET, which a link on any site could open with the
  // person's cookie (SameSite=Lax): the order was marked labelled and `order.labelled` sent.
  it('prints nothing for a GET of the label address (a link from anywhere), only for the form’s POST', async () => {
    const ref = await orderFor(brandId);
    const link = await b.get(`/account/orders/${ref}/label?format=pdf&size=a6`);
    expect(link.status).toBe(404);
    expect(link.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(await labelledAt(ref)).toBeNull();
    // The form's POST without its token (a forged cross-site form) prints nothing either.
    const forged = await b.post(`/account/orders/${ref}/label`, { format: 'pdf' });
    expect(forged.status).toBe(403);
    expect(await labelledAt(ref)).toBeNull();
  });

  it('is the 404 page for another brand’s order', async () => {
    const foreignBrand = (await createBrandWithKey(t.deps, { name: 'Ailleurs' })).brandId;
    const foreign = await orderFor(foreignBrand);
    const page = await b.get('/account/orders');
    const one = await b.post(`/account/orders/${foreign}/label`, { _csrf: csrfOf(page.body) });
    expect(one.status).toBe(404);
    const res = await b.post('/account/labels', { _csrf: csrfOf(page.body), ref: foreign });
    expect(res.status).toBe(422);
    expect(res.body).toContain(`${foreign} is not one of your orders`);
    expect(await labelledAt(foreign)).toBeNull();
  });

  it('says on the Shops page that labels come from the orders page', async () => {
    const page = await b.get('/account/shops');
    expect(page.body).toContain('labels are printed from the Orders page');
  });
});
