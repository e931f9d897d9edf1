import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser, createUser, PASSWORD } from './support/account-browser.ts';
import { API, call, createBrandWithKey, createTestKey, type TestBrand } from './support/app.ts';
import { createOrder, VALID_ORDER } from './support/orders.ts';
import {
  mailsTo,
  notificationsOf,
  type RecipientsStage,
  recipientsStage,
  runNotifications,
  toTheStreet,
  uniqueRecipient,
} from './support/recipients.ts';

/**
 * Test mode's promise to recipients (issue 40): a test order's messages never reach SMTP, whatever
 * the deployment's settings — they go to the development outbox and are shown in the account area —
 * while the same step of a live order does arrive. A real SMTP server listens on loopback
 * (smtp-server) and the app is configured to send through it.
 */
let s: RecipientsStage;
beforeAll(async () => {
  s = await recipientsStage();
});
afterAll(() => s.close());

const DAY = '2026-11-24';

async function orderFor(brand: TestBrand, email: string): Promise<string> {
  s.setNow(`${DAY}T06:00:00Z`);
  const created = await createOrder(s.app, brand, { ...VALID_ORDER, delivery_email: email });
  expect(created.statusCode, created.body).toBe(200);
  return created.data.trackingRef as string;
}

/** The development outbox's e-mails (DATA_DIR/mail/*.eml) addressed to `to`. */
async function outboxMailsTo(to: string): Promise<string[]> {
  const dir = path.join(s.deps.config.dataDir, 'mail');
  const files = (await readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith('.eml'));
  const mails = await Promise.all(files.map((f) => readFile(path.join(dir, f), 'utf8')));
  return mails.filter((raw) => new RegExp(`^To: .*${to.replace(/[.]/g, '\\.')}`, 'im').test(raw));
}

describe('test mode: recipient messages and the SMTP server', () => {
  it('a test order’s e-mail goes to the development outbox and the account area, never to SMTP; a live one arrives', async () => {
    const live = await createBrandWithKey(s.deps, { name: 'Maison Outbox' });
    const test = await createTestKey(s.deps, live);
    const liveTo = uniqueRecipient();
    const testTo = uniqueRecipient();
    const liveRef = await orderFor(live, liveTo);
    const testRef = await orderFor(test, testTo);

    // The same step for both: out for delivery (the live parcel by its scans, the test one simulated).
    s.setNow(`${DAY}T08:30:00Z`);
    await toTheStreet(s.deps, [liveRef], DAY);
    for (const to of ['picked_up', 'in_transit', 'out_for_delivery']) {
      const moved = await call(s.app, {
        method: 'POST',
        url: `${API}/orders/${testRef}/simulate`,
        headers: test.headers,
        payload: { to },
      });
      expect(moved.statusCode, moved.body).toBe(200);
    }
    await runNotifications(s.deps, live.brandId);
    await runNotifications(s.deps, test.brandId);

    // The live recipient's e-mail reached the SMTP server.
    const liveMails = await mailsTo(s, liveTo);
    expect(liveMails.length).toBeGreaterThanOrEqual(1);
    expect(liveMails.map((m) => m.text ?? '').join('\n')).toContain(liveRef);
    expect((await notificationsOf(s.deps, liveRef)).filter((n) => n.channel === 'email')).toContainEqual(
      expect.objectContaining({ step: 'out_for_delivery', status: 'sent' }),
    );

    // The test recipient's did not: nothing for them on the wire, not even a refused RCPT TO.
    expect(s.smtp.inbox.filter((m) => m.to.includes(testTo))).toEqual([]);
    expect(s.smtp.inbox.some((m) => m.raw.includes(testRef))).toBe(false);
    // It was written to the development outbox, whole.
    const dropped = await outboxMailsTo(testTo);
    expect(dropped).toHaveLength(1);
    expect(dropped[0]!.replace(/=\r?\n/g, '')).toContain(testRef);
    // And recorded as sent (to the outbox), as the account area shows it.
    const testEmails = (await notificationsOf(s.deps, testRef)).filter((n) => n.channel === 'email');
    expect(testEmails).toEqual([expect.objectContaining({ step: 'out_for_delivery', status: 'sent' })]);
    expect(await outboxMailsTo(liveTo)).toEqual([]);

    // The account area: the test order's page (test data) lists the message and says where it went.
    const user = await createUser(s.deps, { brandId: live.brandId, role: 'owner' });
    const b = new Browser(s.app, '10.40.1.1');
    expect((await b.signIn(user.email, PASSWORD)).status).toBe(303);
    const page = await b.get(`/account/orders/${testRef}?mode=test&lang=en`);
    expect(page.status).toBe(200);
    const section = page.body.slice(page.body.indexOf('class="card recipient-messages"'));
    expect(section).toContain('Messages to the recipient');
    expect(section).toContain('went to the development outbox, never to the recipient');
    expect(section).toMatch(/<td>Out for delivery<\/td><td>E-mail<\/td><td>Sent<\/td>/);
    // The live order's page has no such note: its messages did go out.
    const livePage = await b.get(`/account/orders/${liveRef}?lang=en`);
    expect(livePage.status).toBe(200);
    expect(livePage.body).not.toContain('development outbox');
  });
});
