import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoiceIdFor } from '../../src/domain/invoices/invoice-service.ts';
import { createBrandWithKey, TEST_PICKUP_ADDRESS } from '../support/app.ts';
import { codeFor, OPERATOR_PASSWORD, operatorEmail, TEST_ACTOR } from '../support/operators.ts';
import { createScratchDatabase } from '../support/scratch-database.ts';
import { hasChromium, openStage, type Stage } from './support.ts';

/**
 * The console's Exceptions and Finance with their actions (issue 39), in a real Chromium against
 * the real app: an admin resends a bounced message to a corrected address and credits an order of
 * an issued invoice, from the pages, by the keyboard-usable forms. Screenshots at 1366×768 go to
 * docs/screenshots/ (console-exceptions-actions-…, console-finance-credit-notes-…). A database of
 * its own: issuing a month concerns every brand of a database.
 */
if (!hasChromium)
  console.warn('console-ops.browser.ts skipped: no Chromium at /usr/bin/chromium (CHROMIUM_PATH)');

const SHOTS = 'docs/screenshots';
const SIZE = { width: 1366, height: 768 };
let at = new Date('2026-10-05T08:00:00Z');
const clock = () => at;

let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
let stage: Stage;
beforeAll(async () => {
  if (!hasChromium) return;
  scratch = await createScratchDatabase();
  stage = await openStage({ clock, config: { databaseUrl: scratch.url } });
  await mkdir(SHOTS, { recursive: true });
});
afterAll(async () => {
  if (!hasChromium) return;
  await stage.close();
  await scratch.drop();
});

async function signedInAdmin(page: Page) {
  const email = operatorEmail('console-ops');
  const { oneTimePassword } = await stage.t.deps.operators.add(
    { email, name: 'Ada Admin', role: 'admin' },
    TEST_ACTOR,
  );
  await page.goto(`${stage.origin}/console/sign-in`);
  await page.fill('#email', email);
  await page.fill('#password', oneTimePassword);
  await Promise.all([
    page.waitForURL(`${stage.origin}/console/setup`),
    page.click('main button[type=submit]'),
  ]);
  await page.fill('#password', OPERATOR_PASSWORD);
  await Promise.all([page.waitForLoadState('load'), page.click('main button[type=submit]')]);
  const secret = (await page.textContent('#secret'))!.trim();
  await page.fill('#code', codeFor(secret, clock()));
  await Promise.all([page.waitForLoadState('load'), page.click('main button[type=submit]')]);
  await Promise.all([page.waitForLoadState('load'), page.click('a.button')]);
}

describe.skipIf(!hasChromium)('the console’s Exceptions and Finance in Chromium', () => {
  it('resends a bounced message and credits an order, each from its page', async () => {
    const { deps, pool } = stage.t;
    const brands = [
      await createBrandWithKey(deps, { name: 'Maison Lumière' }),
      await createBrandWithKey(deps, { name: 'Atelier Sauge' }),
    ];
    const refs: string[] = [];
    for (const [i, brand] of [...brands, brands[0]!, brands[1]!, brands[0]!].entries()) {
      at = new Date(`2026-10-0${i + 2}T08:00:00Z`);
      const order = await deps.orders.create(
        { id: brand.brandId, defaultPickupAddress: TEST_PICKUP_ADDRESS },
        {
          customer_email: 'client@example.com',
          delivery_email: 'jeanne@exampel.con',
          delivery_address: '12 rue Oberkampf 75011 Paris',
        },
      );
      refs.push(order.trackingRef);
    }
    at = new Date('2026-11-01T00:10:00Z');
    await deps.invoices.issueDue();
    at = new Date('2026-11-03T09:00:00Z');
    // What the exceptions list: a bounced e-mail, a shop link the shop refused, a failing endpoint.
    const eventId = `evt_${randomBytes(8).toString('hex')}`;
    await pool.query(
      `INSERT INTO outbox_events (id, brand_id, type, data, created_at) VALUES ($1, $2, 'order.out_for_delivery', $3, $4)`,
      [eventId, brands[0]!.brandId, JSON.stringify({ order: { tracking_ref: refs[0] } }), at],
    );
    const notification = `ntf_${randomBytes(8).toString('hex')}`;
    await pool.query(
      `INSERT INTO recipient_notifications (id, order_id, event_id, step, channel, status, detail, created_at, updated_at)
       SELECT $1, o.id, $2, 'out_for_delivery', 'email', 'failed', '550 5.1.1 <jeanne@exampel.con>: mailbox unknown', $4, $4
         FROM orders o WHERE o.tracking_ref = $3`,
      [notification, eventId, refs[0], at],
    );
    await pool.query(
      `INSERT INTO connector_connections (id, brand_id, platform, shop, status, status_reason, credentials, created_at, updated_at)
       VALUES ($1, $2, 'shopify', 'maison-lumiere.myshopify.com', 'broken', 'the shop refused our token (401)', '\\x00', $3, $3)`,
      [`con_${randomBytes(8).toString('hex')}`, brands[0]!.brandId, at],
    );
    const { endpoint } = await deps.webhooks.add(
      { brandId: brands[1]!.brandId, url: 'https://93.184.216.34/hooks/erp' },
      { actor: { kind: 'cli', label: 'cli@test' }, origin: null },
    );
    await pool.query(`UPDATE webhook_endpoints SET first_failure_at = $2 WHERE id = $1`, [
      endpoint.id,
      new Date(at.getTime() - 3 * 3600_000),
    ]);

    const context = await stage.browser.newContext({ viewport: SIZE, locale: 'en-GB' });
    const page = await context.newPage();
    page.on('console', (m) => {
      if (/Content.Security.Policy|Refused to/i.test(m.text())) throw new Error(`CSP: ${m.text()}`);
    });
    await signedInAdmin(page);

    await page.goto(`${stage.origin}/console/exceptions`);
    expect(await page.textContent('#h-bounced')).toContain('1');
    await page.screenshot({ path: `${SHOTS}/console-exceptions-actions-1366x768.png`, fullPage: true });
    await page.fill(`#to-${notification}`, 'jeanne@example.com');
    await Promise.all([page.waitForLoadState('load'), page.press(`#to-${notification}`, 'Enter')]);
    expect(page.url()).toBe(`${stage.origin}/console/exceptions?done=resent`);
    expect(await page.textContent('p.success')).toContain('The message was sent again.');

    const october = invoiceIdFor(brands[0]!.brandId, '2026-10');
    await page.goto(`${stage.origin}/console/finance?month=2026-10`);
    await page.fill(`#credit-${october}`, refs[2]!);
    await Promise.all([page.waitForLoadState('load'), page.press(`#credit-${october}`, 'Enter')]);
    expect(await page.textContent('p.success')).toContain('Credit note A2026-000001 issued');
    await page.screenshot({ path: `${SHOTS}/console-finance-credit-notes-1366x768.png`, fullPage: true });
    const audit = await pool.query(
      `SELECT action FROM audit_events WHERE actor_kind = 'operator' AND action IN ('notification.resent', 'credit_note.issued') ORDER BY id`,
    );
    expect(audit.rows.map((r) => r.action)).toEqual(['notification.resent', 'credit_note.issued']);
    await context.close();
  });
});
