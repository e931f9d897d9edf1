import type { AddressInfo } from 'node:net';
import { it } from 'vitest';
import { buildTestApp } from './support/app.ts';
import { cameraBrowser, orderWithLabel, phoneContext } from './browser/courier-support.ts';
it('visual', async () => {
  const t = await buildTestApp();
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const label = await orderWithLabel(t.deps);
  const cam = await cameraBrowser(label.png);
  const ctx = await phoneContext(cam.browser);
  await ctx.route('**/courier/api/v1/me', (r) => r.fulfill({ json: { courier: { id: 'cou_1', name: 'Karim B.', locale: 'fr' }, csrf_token: 'x' } }));
  await ctx.route('**/courier/api/v1/day', (r) => r.fulfill({ json: { date: '2026-11-26', rounds: [{ id: 'rnd_1', name: 'PAR-11 matin', sort_codes: ['PAR-11'], stops: [
    { position: 1, kind: 'pickup', pickup: { id: 'pck_1', brand_name: 'Maison Lune', pickup_address: '1 rue de Rivoli, 75001 Paris', window: { start: '14:00', end: '18:00' }, status: 'planned', parcels: ['DLV-0000000001', 'DLV-0000000002'] } },
    { position: 2, kind: 'delivery', order: { tracking_ref: label.order.trackingRef, status: 'out_for_delivery', recipient: 'Jeanne Martin', address: '12 rue Oberkampf', postcode: '75011', city: 'Paris', phone: '+33612345678', sort_code: 'PAR-11', quantity: 1, failed_attempts: 0, instructions: 'Code 4512B, 3e étage gauche' } },
    { position: 3, kind: 'delivery', order: { tracking_ref: 'DLV-0000000003', status: 'in_transit', recipient: 'Paul Durand', address: '5 avenue Parmentier', postcode: '75011', city: 'Paris', phone: null, sort_code: 'PAR-11', quantity: 1, failed_attempts: 1, instructions: null } },
  ] }] } }));
  await ctx.route('**/courier/api/v1/scans', (r) => r.fulfill({ json: { results: JSON.parse(r.request().postData()!).scans.map((s: any) => ({ id: s.id, result: 'refused', tracking_ref: s.code, status: null, problem: { code: 'wrong_round', message: 'x' } })) } }));
  const page = await ctx.newPage();
  page.on('console', (m) => console.log('console', m.text()));
  page.on('pageerror', (e) => console.log('pageerror', e));
  await page.goto(`${origin}/courier/`);
  await page.waitForSelector('body[data-ready="true"]');
  await page.screenshot({ path: '/tmp/shots/day.png', fullPage: true });
  await page.click('#tab-scan');
  await page.click('#camera-toggle');
  await page.waitForSelector('#recent li', { timeout: 20000 });
  await page.waitForTimeout(1000);
  await page.screenshot({ path: '/tmp/shots/scan.png', fullPage: true });
  await page.click('#tab-day');
  await page.click(`li[data-ref="${label.order.trackingRef}"] button.primary`);
  await page.waitForTimeout(1500);
  await page.click('#take-photo');
  await page.waitForTimeout(500);
  const box = (await page.locator('#signature').boundingBox())!;
  await page.mouse.move(box.x + 20, box.y + 60); await page.mouse.down();
  for (let i = 0; i < 20; i++) await page.mouse.move(box.x + 20 + i * 15, box.y + 60 + Math.sin(i) * 25);
  await page.mouse.up();
  await page.fill('#received-by', 'Jeanne Martin');
  await page.screenshot({ path: '/tmp/shots/door.png', fullPage: true });
  await cam.close(); await t.close();
}, 120000);
