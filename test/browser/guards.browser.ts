import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../support/account-browser.ts';
import { API, createBrandWithKey } from '../support/app.ts';
import { hasChromium, newPage, openStage, type Stage, shoot, signIn } from './support.ts';

/** What a browser must not get past: a role's limits, another brand's objects, a forged form. */
let stage: Stage;

describe.skipIf(!hasChromium)('account area guards (Chromium)', () => {
  beforeAll(async () => {
    stage = await openStage();
  });
  afterAll(() => stage?.close());

  it('keeps a finance person away from the API keys', async () => {
    const finance = await createUser(stage.t.deps, { role: 'finance' });
    const page = await newPage(stage);
    await signIn(page, stage, finance.email);
    expect(await page.locator('nav a[href="/account/keys"]').count()).toBe(0);
    expect(await page.locator('nav a[href="/account/team"]').count()).toBe(0);
    const res = await page.goto(`${stage.origin}/account/keys`);
    expect(res?.status()).toBe(403);
    expect(await page.textContent('main')).toContain('You cannot open this page with your role.');
    await shoot(page, 'account-403');
  });

  it('shows the 404 page for another brand’s key', async () => {
    const owner = await createUser(stage.t.deps, { role: 'owner' });
    const other = await createBrandWithKey(stage.t.deps);
    const page = await newPage(stage);
    await signIn(page, stage, owner.email);
    for (const action of ['revoke', 'roll']) {
      const res = await page.goto(`${stage.origin}/account/keys/${other.keyId}/${action}`);
      expect(res?.status()).toBe(404);
      expect(await page.textContent('main')).toContain('This page does not exist.');
    }
    await shoot(page, 'account-404');
    const me = await fetch(`${stage.origin}${API}/me`, { headers: other.headers });
    expect(me.status).toBe(200);
  });

  it('answers a form sent without its CSRF field with the 403 page, changing nothing', async () => {
    const owner = await createUser(stage.t.deps, { role: 'owner' });
    const dev = await createUser(stage.t.deps, { role: 'developer', brandId: owner.brandId });
    const page = await newPage(stage);
    await signIn(page, stage, owner.email);
    await page.goto(`${stage.origin}/account/team`);
    await shoot(page, 'account-team');
    await page.goto(`${stage.origin}/account/team/${dev.userId}/remove`);
    await shoot(page, 'account-team-remove');
    // As a forged cross-site form would be: the same fields, without the token.
    await page.locator('main form input[name=_csrf]').evaluate((input) => input.remove());
    const [res] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST'),
      page.click('main form button[type=submit]'),
    ]);
    expect(res.status()).toBe(403);
    expect(await page.textContent('main')).toContain('The form expired');
    await shoot(page, 'account-csrf');
    const { rows } = await stage.t.pool.query('SELECT role FROM users WHERE id = $1', [dev.userId]);
    expect(rows[0]?.role).toBe('developer');
  });

  // #23 item 16: once a 500 from PostgreSQL, then a 400 page; the form's own error now.
  it('shows a control character in a field as the form’s own error, in the page’s language, saving nothing', async () => {
    const owner = await createUser(stage.t.deps, { role: 'owner' });
    const page = await newPage(stage);
    await signIn(page, stage, owner.email);
    await page.goto(`${stage.origin}/account/company?lang=fr`);
    // Pasted from somewhere with a NUL in it: no keyboard types one.
    await page.fill('#legal_name', 'Acme\u0000 SAS');
    await page.fill('#billing_address', '1 rue de Rivoli, 75001 Paris');
    const [res] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST'),
      page.click('main form button[type=submit]'),
    ]);
    expect(res.status()).toBe(400);
    expect(await page.textContent('#legal_name-error')).toBe(
      'Raison sociale : ne doit contenir aucun caractère de contrôle (comme NUL)',
    );
    expect(await page.inputValue('#legal_name')).toBe('Acme SAS');
    expect(await page.inputValue('#billing_address')).toBe('1 rue de Rivoli, 75001 Paris');
    await shoot(page, 'account-company-control-character');
    const { rows } = await stage.t.pool.query('SELECT legal_name FROM brands WHERE id = $1', [owner.brandId]);
    expect(rows[0]?.legal_name).not.toBe('Acme SAS');

    const search = await page.goto(`${stage.origin}/account/orders?lang=en&q=ab%01c`);
    expect(search?.status()).toBe(400);
    expect(await page.textContent('main')).toContain(
      'Search: must not contain control characters (such as NUL)',
    );
    expect(await page.inputValue('input[name=q]')).toBe('abc');
    await shoot(page, 'account-orders-control-character');
  });
});
