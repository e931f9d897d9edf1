import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recipientSettingsRepository } from '../src/db/repositories/recipient-settings-repository.ts';
import { DEFAULT_RECIPIENT_SETTINGS } from '../src/domain/recipients/ports.ts';
import { Browser, createUser, csrfOf, PASSWORD } from './support/account-browser.ts';
import { buildTestApp, createBrandWithKey, type TestApp } from './support/app.ts';
import { logoImage, multipartBody, oversizedPng, pngClaiming, SVG_LOGO } from './support/logos.ts';
import { linkShop } from './support/shopify.ts';

/** The owner's recipient settings page (/account/notifications) and its logo upload. */
let t: TestApp;
let ipCounter = 0;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

async function signedIn(options: Parameters<typeof createUser>[1] = {}) {
  const user = await createUser(t.deps, options);
  const b = new Browser(t.app, `10.28.1.${++ipCounter}`);
  expect((await b.signIn(user.email, PASSWORD)).status).toBe(303);
  return { ...user, b };
}

const row = async (brandId: string) =>
  (
    await t.pool.query(
      `SELECT email_steps, sms_steps, sender_name, colour, locale, shop_notifies, logo_png, logo_sha256
         FROM brand_recipient_settings WHERE brand_id = $1`,
      [brandId],
    )
  ).rows[0];

const GOOD = {
  email_steps: ['confirmed', 'delivered'],
  sms_steps: ['out_for_delivery'],
  sender_name: 'Maison Lumière',
  colour: '#1A73E8',
  colour_shown: '',
  colour_picker: '#2f5bea',
  picker_shown: '#2f5bea',
  locale: 'en',
  shop_notifies: '1',
};

/** Posts the logo form as a browser does: the token first, then the file. */
async function uploadLogo(
  b: Browser,
  content: Buffer,
  options: { csrf?: string | null; type?: string } = {},
) {
  const csrf =
    options.csrf === undefined ? csrfOf((await b.get('/account/notifications')).body) : options.csrf;
  const { payload, contentType } = multipartBody([
    ...(csrf === null ? [] : [{ name: '_csrf', value: csrf }]),
    { name: 'logo', filename: 'logo.bin', type: options.type ?? 'image/png', content },
  ]);
  const cookie = [...b.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const res = await t.app.inject({
    method: 'POST',
    url: '/account/notifications/logo',
    remoteAddress: '10.28.9.9',
    headers: { cookie, 'content-type': contentType, 'accept-language': 'en' },
    payload,
  });
  return { status: res.statusCode, body: res.body, location: res.headers.location };
}

describe('/account/notifications', () => {
  it('shows the defaults to the owner, with its link in the menu', async () => {
    const { b } = await signedIn();
    const page = await b.get('/account/notifications');
    expect(page.status).toBe(200);
    expect(page.body).toContain('href="/account/notifications"');
    for (const step of DEFAULT_RECIPIENT_SETTINGS.emailSteps)
      expect(page.body).toMatch(new RegExp(`name="email_steps" value="${step}"[^>]* checked`));
    expect(page.body).not.toMatch(/name="email_steps" value="confirmed"[^>]* checked/);
    expect(page.body).not.toMatch(/name="sms_steps"[^>]* checked/);
    expect(page.body).toMatch(/<option value="fr" selected>/);
    expect(page.body).toContain('type="color"');
    expect(page.body).toContain('enctype="multipart/form-data"');
    // An unknown notice is no notice (nor an inherited property of an object).
    for (const done of ['constructor', '__proto__', 'toString', 'nope']) {
      const res = await b.get(`/account/notifications?done=${done}`);
      expect(res.status, done).toBe(200);
      expect(res.body).not.toContain('role="status"');
    }
    // French too.
    const fr = await b.get('/account/notifications?lang=fr');
    expect(fr.body).toContain('Notifications des destinataires');
  });

  it('saves every field (post/redirect/get), the colour in lower case', async () => {
    const { b, brandId } = await signedIn();
    const res = await b.follow(b.submit('/account/notifications', '/account/notifications', GOOD));
    expect(res.status).toBe(200);
    expect(res.body).toContain('Your settings are saved.');
    expect(await row(brandId)).toMatchObject({
      email_steps: ['confirmed', 'delivered'],
      sms_steps: ['out_for_delivery'],
      sender_name: 'Maison Lumière',
      colour: '#1a73e8',
      locale: 'en',
      shop_notifies: true,
      logo_png: null,
    });
    expect(res.body).toContain('value="#1a73e8"');
    // Unticking everything and emptying the name and colour goes back to none.
    const cleared = await b.submit('/account/notifications', '/account/notifications', {
      locale: 'fr',
      sender_name: '',
      colour: '',
      colour_shown: '#1a73e8',
      colour_picker: '#1a73e8',
      picker_shown: '#1a73e8',
    });
    expect(cleared.status).toBe(303);
    expect(await row(brandId)).toMatchObject({
      email_steps: [],
      sms_steps: [],
      sender_name: null,
      colour: null,
      shop_notifies: false,
    });
  });

  it('takes the picker’s colour when only the picker changed, the text’s when it changed', async () => {
    const { b, brandId } = await signedIn();
    const base = { locale: 'fr', colour: '', colour_shown: '', picker_shown: '#2f5bea' };
    await b.submit('/account/notifications', '/account/notifications', { ...base, colour_picker: '#ff8800' });
    expect((await row(brandId)).colour).toBe('#ff8800');
    const page = await b.get('/account/notifications');
    expect(page.body).toMatch(/type="color" name="colour_picker" value="#ff8800"/);
    await b.submit('/account/notifications', '/account/notifications', {
      locale: 'fr',
      colour: '#00aa00',
      colour_shown: '#ff8800',
      colour_picker: '#123456',
      picker_shown: '#ff8800',
    });
    expect((await row(brandId)).colour).toBe('#00aa00');
    // Nothing changed on the form: the colour stays.
    await b.submit('/account/notifications', '/account/notifications', {
      locale: 'fr',
      colour: '#00aa00',
      colour_shown: '#00aa00',
      colour_picker: '#00aa00',
      picker_shown: '#00aa00',
    });
    expect((await row(brandId)).colour).toBe('#00aa00');
    // The text box emptied and the picker moved (after a refused colour): the picker's.
    await b.submit('/account/notifications', '/account/notifications', {
      locale: 'fr',
      colour: '',
      colour_shown: 'teal',
      colour_picker: '#0f766e',
      picker_shown: '#00aa00',
    });
    expect((await row(brandId)).colour).toBe('#0f766e');
    // The text box emptied alone: no colour.
    await b.submit('/account/notifications', '/account/notifications', {
      locale: 'fr',
      colour: '',
      colour_shown: '#0f766e',
      colour_picker: '#0f766e',
      picker_shown: '#0f766e',
    });
    expect((await row(brandId)).colour).toBeNull();
  });

  it('refuses every bad field at once with its own message, saving nothing', async () => {
    const { b, brandId } = await signedIn();
    const res = await b.submit('/account/notifications', '/account/notifications', {
      ...GOOD,
      email_steps: ['delivered', 'teleported'],
      sms_steps: ['code'],
      sender_name: 'x'.repeat(61),
      colour: 'red',
      locale: 'de',
    });
    expect(res.status).toBe(400);
    expect(res.body).toContain('Nothing was saved');
    expect(res.body).toContain(
      'E-mail steps: must be among confirmed, out_for_delivery, eta_changed, delivered, failed_attempt',
    );
    expect(res.body).toContain('Sender name: must be 1 to 60 characters');
    expect(res.body).toContain('Colour: must be a colour written #rrggbb, such as #1a73e8');
    expect(res.body).toContain('Language of the messages: must be fr or en');
    expect(res.body).toContain('id="colour-error"');
    expect(res.body).toContain(`value="${'x'.repeat(61)}"`); // kept for correcting
    expect(await row(brandId)).toBeUndefined();
  });

  const badNames: [string, string][] = [
    ['a < or >', 'Shop <admin@evil.example>'],
    ['a double quote', 'Best "Shop"'],
    ['a line break', 'Shop\r\nBcc: victim@example.com'],
    ['a NUL', 'Shop\u0000'],
    ['a Unicode line separator', 'Shop\u2028x'],
  ];
  for (const [label, name] of badNames) {
    it(`refuses a sender name with ${label}, saving nothing`, async () => {
      const { b, brandId } = await signedIn();
      const res = await b.submit('/account/notifications', '/account/notifications', {
        ...GOOD,
        sender_name: name,
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatch(/Sender name: must not contain (line breaks|control characters)/);
      expect(await row(brandId)).toBeUndefined();
    });
  }

  it('refuses each malformed colour (#rrggbb only) and says it in French too', async () => {
    const { b, brandId } = await signedIn();
    for (const colour of ['#12345', '#1234567', '#gggggg', 'rgb(1,2,3)', '#fff;}body{display:none', 'blue']) {
      const res = await b.submit('/account/notifications', '/account/notifications', { ...GOOD, colour });
      expect(res.status, colour).toBe(400);
      expect(res.body).toContain('must be a colour written #rrggbb');
    }
    const fr = await b.submit('/account/notifications?lang=fr', '/account/notifications', {
      ...GOOD,
      colour: 'bleu',
    });
    expect(fr.body).toContain('Couleur : doit être une couleur écrite #rrggbb');
    expect(await row(brandId)).toBeUndefined();
  });

  it('lists the linked shops that notify their customers themselves', async () => {
    const { b, brandId } = await signedIn();
    expect((await b.get('/account/notifications')).body).not.toContain('tell your customers themselves');
    const shop = await linkShop(t.deps, brandId);
    const page = await b.get('/account/notifications');
    expect(page.body).toContain('tell your customers themselves');
    expect(page.body).toContain(`${shop.shop} (Shopify)`);
    await t.deps.connections.updateSettings(brandId, shop.id, { notifyCustomer: false });
    expect((await b.get('/account/notifications')).body).not.toContain(shop.shop);
  });
});

describe('roles and CSRF', () => {
  for (const role of ['developer', 'finance'] as const) {
    it(`refuses a ${role} (403 on every route, no menu link), saving nothing`, async () => {
      const { b, brandId } = await signedIn({ role });
      const home = await b.get('/account');
      expect(home.body).not.toContain('href="/account/notifications"');
      expect((await b.get('/account/notifications')).status).toBe(403);
      const csrf = csrfOf(home.body);
      expect((await b.post('/account/notifications', { ...GOOD, _csrf: csrf })).status).toBe(403);
      expect((await b.post('/account/notifications/logo/remove', { _csrf: csrf })).status).toBe(403);
      expect((await uploadLogo(b, await logoImage('png'), { csrf })).status).toBe(403);
      expect(await row(brandId)).toBeUndefined();
    });
  }

  it('refuses a form without the session’s token (403), saving nothing', async () => {
    const { b, brandId } = await signedIn();
    expect((await b.post('/account/notifications', GOOD)).status).toBe(403);
    expect((await b.post('/account/notifications', { ...GOOD, _csrf: 'forged' })).status).toBe(403);
    expect((await uploadLogo(b, await logoImage('png'), { csrf: null })).status).toBe(403);
    expect((await uploadLogo(b, await logoImage('png'), { csrf: 'forged' })).status).toBe(403);
    expect((await b.post('/account/notifications/logo/remove', {})).status).toBe(403);
    expect(await row(brandId)).toBeUndefined();
  });

  it('changes only the signed-in person’s brand', async () => {
    const { b, brandId } = await signedIn();
    const other = await signedIn();
    await b.submit('/account/notifications', '/account/notifications', GOOD);
    expect(await uploadLogo(b, await logoImage('png'))).toMatchObject({ status: 303 });
    expect((await row(brandId)).colour).toBe('#1a73e8');
    expect(await row(other.brandId)).toBeUndefined();
    const otherPage = await other.b.get('/account/notifications');
    expect(otherPage.body).not.toContain('value="#1a73e8"');
    expect(otherPage.body).not.toContain('/track/assets/logo/');
  });
});

describe('the logo', () => {
  for (const format of ['png', 'jpeg', 'webp'] as const) {
    it(`takes a ${format.toUpperCase()} and stores its re-encoding, a PNG fitting 400×120`, async () => {
      const { b, brandId } = await signedIn();
      const uploaded = await logoImage(format, 1200, 300);
      const res = await uploadLogo(b, uploaded, { type: `image/${format}` });
      expect(res.status).toBe(303);
      expect(res.location).toBe('/account/notifications?done=logo');
      const stored = await row(brandId);
      expect(Buffer.compare(stored.logo_png, uploaded)).not.toBe(0);
      const meta = await sharp(stored.logo_png).metadata();
      expect(meta).toMatchObject({ format: 'png', width: 400, height: 100 });
      expect(meta.exif).toBeUndefined();
      const page = await b.get('/account/notifications?done=logo');
      expect(page.body).toContain('Your logo is saved.');
      expect(page.body).toContain(`<img src="/track/assets/logo/${brandId}/${stored.logo_sha256}.png"`);
      // The rest of the settings are still the defaults.
      expect(await t.deps.recipientSettings.get(brandId)).toMatchObject({
        emailSteps: DEFAULT_RECIPIENT_SETTINGS.emailSteps,
        logoSha256: stored.logo_sha256,
      });
    });
  }

  it('keeps a small logo at its size (never enlarged) and its transparency', async () => {
    const { b, brandId } = await signedIn();
    expect((await uploadLogo(b, await logoImage('png', 120, 40))).status).toBe(303);
    const meta = await sharp((await row(brandId)).logo_png).metadata();
    expect(meta).toMatchObject({ width: 120, height: 40, hasAlpha: true });
  });

  const refused: [string, () => Promise<Buffer>, string][] = [
    ['an SVG', async () => SVG_LOGO, 'must be a PNG, JPEG or WebP image'],
    ['a GIF', () => logoImage('gif'), 'must be a PNG, JPEG or WebP image'],
    [
      'garbage',
      async () => Buffer.from('this is not an image at all, just text'),
      'must be a PNG, JPEG or WebP image',
    ],
    [
      'a truncated PNG',
      async () => {
        const png = await logoImage('png', 1200, 300);
        return png.subarray(0, Math.floor(png.length / 2));
      },
      'could not be read as an image',
    ],
    [
      'a PNG claiming 100000×100000 pixels',
      () => pngClaiming(100_000, 100_000),
      'at most 4096 × 4096 pixels',
    ],
    ['a PNG 5000 pixels wide', () => logoImage('png', 5000, 100), 'at most 4096 × 4096 pixels'],
    [
      'a JPEG that is a PNG',
      async () => Buffer.from([0xff, 0xd8, 0xff, 0xe0, ...(await logoImage('png'))]),
      'could not be read',
    ],
    ['a file over 1 MB', async () => oversizedPng(), 'Logo: must be at most 1 MB'],
    ['an empty file', async () => Buffer.alloc(0), 'Logo: choose an image file'],
  ];
  for (const [label, make, message] of refused) {
    it(`refuses ${label} with a clear message, storing nothing`, async () => {
      const { b, brandId } = await signedIn();
      const res = await uploadLogo(b, await make());
      expect(res.status).toBe(400);
      expect(res.body).toContain(message);
      expect(res.body).toContain('id="logo-error"');
      expect(await row(brandId)).toBeUndefined();
    });
  }

  it('asks for a file when the form has none', async () => {
    const { b, brandId } = await signedIn();
    const res = await b.submit('/account/notifications', '/account/notifications/logo', {});
    expect(res.status).toBe(400);
    expect(res.body).toContain('Logo: choose an image file');
    expect(await row(brandId)).toBeUndefined();
  });

  it('is removed, and its URL then answers 404', async () => {
    const { b, brandId } = await signedIn();
    await b.submit('/account/notifications', '/account/notifications', GOOD);
    await uploadLogo(b, await logoImage('webp'));
    const { logo_sha256: sha } = await row(brandId);
    const url = `/track/assets/logo/${brandId}/${sha}.png`;
    expect((await t.app.inject({ url, remoteAddress: '10.28.8.1' })).statusCode).toBe(200);
    const res = await b.follow(b.submit('/account/notifications', '/account/notifications/logo/remove', {}));
    expect(res.body).toContain('Your logo is removed.');
    expect(await row(brandId)).toMatchObject({ logo_png: null, logo_sha256: null, colour: '#1a73e8' });
    expect((await t.app.inject({ url, remoteAddress: '10.28.8.1' })).statusCode).toBe(404);
  });
});

describe('the settings store', () => {
  it('gives the defaults for a brand that never chose, and refuses unchecked values', async () => {
    const brand = await createBrandWithKey(t.deps);
    const repo = recipientSettingsRepository(t.pool);
    expect(await repo.get(brand.brandId)).toEqual({ brandId: brand.brandId, ...DEFAULT_RECIPIENT_SETTINGS });
    const base = { brandId: brand.brandId, ...DEFAULT_RECIPIENT_SETTINGS };
    await expect(repo.save({ ...base, colour: 'red;}' })).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(repo.save({ ...base, emailSteps: ['nope' as never] })).rejects.toMatchObject({
      code: 'invalid_request',
    });
    await expect(repo.save({ ...base, brandId: 'brd_0000000000000000' })).rejects.toMatchObject({
      code: 'not_found',
    });
    expect(await row(brand.brandId)).toBeUndefined();
    const saved = await repo.save({ ...base, colour: '#ABCDEF', smsSteps: ['delivered', 'confirmed'] });
    expect(saved).toMatchObject({ colour: '#abcdef', smsSteps: ['confirmed', 'delivered'] });
    expect(saved.updatedAt).toBeInstanceOf(Date);
  });
});
