import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBrandWithKey } from './support/app.ts';
import { createOrder, VALID_ORDER } from './support/orders.ts';
import {
  optOutSource,
  type RecipientsStage,
  recipientsStage,
  runNotifications,
  setRecipientSettings,
} from './support/recipients.ts';
import { runDlv } from './support/run-cli.ts';

let s: RecipientsStage;
let env: Record<string, string>;
beforeAll(async () => {
  s = await recipientsStage();
  env = { DATABASE_URL: s.databaseUrl, LOG_LEVEL: 'silent' };
});
afterAll(() => s.close());

const sourceOf = (channel: 'email' | 'sms', address: string) => optOutSource(s.deps, channel, address);

describe('dlv recipients', () => {
  it('opt-out --email / --phone: the operator stops an address or a number for every brand', async () => {
    const email = `Opt.Out-${randomUUID().slice(0, 8)}@Example.com`;
    const byEmail = await runDlv(['recipients', 'opt-out', '--email', email, '--json'], env);
    expect(byEmail.code).toBe(0);
    expect(JSON.parse(byEmail.stdout)).toEqual({ channel: 'email', opted_out: true });
    expect(await sourceOf('email', email.toLowerCase())).toBe('operator');

    const digits = String(Date.now()).slice(-8);
    const byPhone = await runDlv(['recipients', 'opt-out', '--phone', `07 ${digits}`], env);
    expect(byPhone.code).toBe(0);
    expect(byPhone.stdout).toContain(`No more SMS to +337${digits}`);
    expect(await sourceOf('sms', `+337${digits}`)).toBe('operator');

    for (const args of [
      [],
      ['--email', 'x@example.com', '--phone', '0612345678'],
      ['--email', 'nope'],
      ['--phone', '12'],
    ]) {
      const refused = await runDlv(['recipients', 'opt-out', ...args], env);
      expect(refused.code, args.join(' ')).toBe(2);
      expect(refused.stderr).toMatch(/--email|--phone/);
    }
    expect(await sourceOf('email', 'nope')).toBeNull();
  });

  it('notifications REF: an order’s messages, without the address', async () => {
    const brand = await createBrandWithKey(s.deps);
    await setRecipientSettings(s.deps, brand.brandId, { emailSteps: ['confirmed'] });
    const to = `cli-${randomUUID().slice(0, 8)}@example.com`;
    const ref = (await createOrder(s.app, brand, { ...VALID_ORDER, delivery_email: to })).data.trackingRef;
    await runNotifications(s.deps, brand.brandId);
    const human = await runDlv(['recipients', 'notifications', ref], env);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/confirmed\s+email\s+sent/);
    expect(human.stdout).toMatch(/confirmed\s+sms\s+skipped\s+off/);
    expect(human.stdout).not.toContain(to);
    const json = JSON.parse((await runDlv(['recipients', 'notifications', ref, '--json'], env)).stdout);
    expect(json.notifications.map((n: { channel: string; status: string }) => [n.channel, n.status])).toEqual(
      [
        ['email', 'sent'],
        ['sms', 'skipped'],
      ],
    );
    const unknown = await runDlv(['recipients', 'notifications', 'DLV-0000000000'], env);
    expect(unknown.code).not.toBe(0);
  });
});
