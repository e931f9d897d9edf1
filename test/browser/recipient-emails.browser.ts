import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { simpleParser } from 'mailparser';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NotificationStep } from '../../src/domain/recipients/ports.ts';
import { createBrandWithKey } from '../support/app.ts';
import { createOrder, VALID_ORDER } from '../support/orders.ts';
import {
  atTheDoor,
  roundOf,
  runNotifications,
  setRecipientSettings,
  toTheStreet,
} from '../support/recipients.ts';
import { DOC_SHOTS, hasChromium, newPage, openStage, type Stage } from './support.ts';

/**
 * The recipients' e-mails as a person sees them: sent by the real job to the real SMTP receiver,
 * read back, and drawn by Chromium at a phone's width and a desktop mail client's (the inline
 * logo given back as the image it is). The pictures go to docs/images (docs/recipients.md).
 */
let stage: Stage;
const IMAGES = DOC_SHOTS;

/** A wordmark logo, as a brand would upload one (the branding part re-encodes uploads to such a PNG). */
const logoPng = () =>
  sharp(
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="440" height="96"><rect width="96" height="96" rx="20" fill="#0f766e"/><text x="48" y="66" font-family="DejaVu Sans" font-size="52" font-weight="700" fill="#fff" text-anchor="middle">É</text><text x="116" y="62" font-family="DejaVu Serif" font-size="40" fill="#0f3d3a">Maison Éole</text></svg>`,
    ),
  )
    .png()
    .toBuffer();

/** Sends `step` for a new order of a brand with these looks; the received message. */
async function received(options: {
  locale: 'fr' | 'en';
  logo: boolean;
  step: NotificationStep;
  colour: string;
}) {
  const { deps, app } = stage.t;
  const brand = await createBrandWithKey(deps, { name: options.logo ? 'Maison Éole' : 'Atelier Lumen' });
  await setRecipientSettings(deps, brand.brandId, {
    emailSteps: [options.step],
    colour: options.colour,
    locale: options.locale,
  });
  if (options.logo) await deps.recipientSettingsStore.setLogo(brand.brandId, await logoPng());
  const to = `shot-${randomUUID().slice(0, 8)}@example.com`;
  now = new Date('2026-11-24T09:00:00Z');
  const ahead = (await createOrder(app, brand, VALID_ORDER)).data.trackingRef;
  const ref = (await createOrder(app, brand, { ...VALID_ORDER, delivery_email: to })).data.trackingRef;
  if (options.step !== 'confirmed') {
    now = new Date('2026-11-25T17:00:00Z');
    await roundOf(deps, '2026-11-25', [ahead, ref]);
    await toTheStreet(deps, [ahead, ref], '2026-11-25', '09:40');
    if (options.step !== 'out_for_delivery')
      await atTheDoor(deps, ref, '2026-11-25T10:52:00+01:00', options.step as 'delivered' | 'failed_attempt');
  }
  await runNotifications(deps, brand.brandId);
  const raw = stage.smtp.inbox.find((m) => m.to.includes(to))?.raw;
  expect(raw, `${options.step} to ${to}`).toBeDefined();
  return simpleParser(raw!);
}

let now = new Date('2026-11-24T09:00:00Z');

describe.skipIf(!hasChromium)('the recipients’ e-mails (Chromium)', () => {
  beforeAll(async () => {
    stage = await openStage({ config: { publicBaseUrl: 'https://dlv.example.com' }, clock: () => now });
    await mkdir(IMAGES, { recursive: true });
  });
  afterAll(() => stage?.close());

  const cases = [
    { name: 'en-logo', locale: 'en', logo: true, step: 'out_for_delivery', colour: '#0f766e' },
    { name: 'en-plain', locale: 'en', logo: false, step: 'delivered', colour: '#7a3fd1' },
    { name: 'fr-logo', locale: 'fr', logo: true, step: 'failed_attempt', colour: '#0f766e' },
    { name: 'fr-plain', locale: 'fr', logo: false, step: 'out_for_delivery', colour: '#facc15' },
  ] as const;

  for (const c of cases) {
    it(`${c.name}: ${c.step} at 390 and 800 px`, async () => {
      const mail = await received(c);
      const logo = mail.attachments.find((a) => a.cid === 'logo');
      expect(Boolean(logo)).toBe(c.logo);
      // A mail client shows the inline part where the HTML names it.
      const html = String(mail.html).replace(
        'cid:logo',
        logo ? `data:image/png;base64,${logo.content.toString('base64')}` : 'cid:logo',
      );
      const page = await newPage(stage);
      for (const width of [390, 800]) {
        await page.setViewportSize({ width, height: 700 });
        await page.setContent(html, { waitUntil: 'load' });
        // The content fits the width: nothing to scroll sideways.
        expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(
          width,
        );
        if (c.logo)
          expect(await page.evaluate<number>('document.images[0]?.naturalWidth ?? 0')).toBeGreaterThan(0);
        await page.screenshot({ path: `${IMAGES}/recipient-email-${c.name}-${width}.png`, fullPage: true });
      }
      await page.context().close();
    });
  }

  it('the unsubscribe page, then its answer, at a phone’s width', async () => {
    const mail = await received({ locale: 'fr', logo: false, step: 'confirmed', colour: '#2f5bea' });
    const link = String(mail.text).match(/https:\/\/dlv\.example\.com(\/unsubscribe\/[A-Za-z0-9_-]+)/)![1]!;
    const page = await newPage(stage);
    await page.setViewportSize({ width: 390, height: 700 });
    await page.goto(`${stage.origin}${link}?lang=fr`);
    await page.screenshot({ path: `${IMAGES}/recipient-unsubscribe-390.png`, fullPage: true });
    await page.click('button[type=submit]');
    await page.waitForURL(`${stage.origin}${link}`);
    expect(await page.textContent('h1')).toMatch(/unsubscribed|désabonné/);
    await page.screenshot({ path: `${IMAGES}/recipient-unsubscribed-390.png`, fullPage: true });
    await page.context().close();
  });
});
