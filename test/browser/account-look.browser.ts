import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storesOn } from '../../src/db/stores.ts';
import { createUser, PASSWORD, uniqueEmail } from '../support/account-browser.ts';
import { TEST_PICKUP_ADDRESS } from '../support/app.ts';
import { hasChromium, newPage, onStage, openStage, type Stage, shoot, signIn } from './support.ts';

/**
 * What a person sees of the account area's tables and messages (#36 item 26): headers that wrap
 * between words only, a success that does not look like a warning, an invitation that ends signed
 * in, its e-mail naming the company.
 */
let stage: Stage;

/** The owner's pages with tables (and the others' forms), each drawn at every width. */
const PAGES = [
  '/account/team',
  '/account/orders',
  '/account/keys',
  '/account/notifications',
  '/account/webhooks',
  '/account/pickups',
  '/account/shops',
];

/** The widths the area is drawn at: a desktop, a small laptop window, a tablet and a phone. */
const WIDTHS = [1280, 1024, 800, 390];

/**
 * Every visible table header's word that the browser split over two lines, as "header → word": a
 * word's range gives one box per line it is drawn on. (A string: the tests are not typed for the DOM.)
 */
function headersBrokenInsideAWord(page: Page): Promise<string[]> {
  return page.evaluate(`(() => {
    const broken = [];
    for (const th of document.querySelectorAll('th')) {
      if (th.offsetParent === null) continue;
      const walker = document.createTreeWalker(th, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (const word of node.textContent.matchAll(/\\S+/g)) {
          const range = document.createRange();
          range.setStart(node, word.index);
          range.setEnd(node, word.index + word[0].length);
          const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
          if (lines.size > 1) broken.push(th.textContent.trim() + ' → ' + word[0]);
        }
      }
    }
    return broken;
  })()`);
}

/** How many pixels the page is wider than the window (a table pushing it sideways). */
const sidewaysOverflow = (page: Page): Promise<number> =>
  page.evaluate('document.documentElement.scrollWidth - window.innerWidth');

describe.skipIf(!hasChromium)('the account area’s look (Chromium)', () => {
  beforeAll(async () => {
    stage = await openStage();
  });
  afterAll(() => stage?.close());

  it('wraps table headers between words only, at desktop, laptop, tablet and phone widths', async () => {
    const owner = await createUser(stage.t.deps, { role: 'owner' });
    for (const role of ['developer', 'finance'] as const)
      await createUser(stage.t.deps, { role, brandId: owner.brandId });
    for (const recipient of ['Jeanne Martin', 'Paul Durand-Lefèvre de la Tour']) {
      await stage.t.deps.orders.create(
        { id: owner.brandId, defaultPickupAddress: TEST_PICKUP_ADDRESS },
        {
          customer_email: 'a.very.long.customer.address@example.com',
          delivery_address: '12 rue Oberkampf 75011 Paris',
          delivery_recipient: recipient,
          reference: 'CMD-2026-000000000042',
        },
      );
    }
    await stage.t.deps.team.invite((await storesOn(stage.t.pool).users.findById(owner.userId))!, {
      email: uniqueEmail('a-long-invited-address'),
      role: 'finance',
      locale: 'en',
      ip: '127.0.0.1',
    });
    const page = await newPage(stage);
    await signIn(page, stage, owner.email);
    const broken: string[] = [];
    for (const lang of ['en', 'fr']) {
      for (const path of PAGES) {
        await page.goto(`${stage.origin}${path}?lang=${lang}`);
        for (const width of WIDTHS) {
          await page.setViewportSize({ width, height: 800 });
          broken.push(
            ...(await headersBrokenInsideAWord(page)).map((b) => `${path} ${lang} ${width} px: ${b}`),
          );
          // Nor does a word kept whole push the page sideways.
          const overflow = await sidewaysOverflow(page);
          if (overflow > 0) broken.push(`${path} ${lang} ${width} px: ${overflow} px wider than the window`);
        }
        await page.setViewportSize({ width: 1280, height: 800 });
        await shoot(page, `account-look${path.replaceAll('/', '-')}-${lang}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('says what was done in the success style, green, never in the warning’s', async () => {
    const owner = await createUser(stage.t.deps, { role: 'owner' });
    const dev = await createUser(stage.t.deps, { role: 'developer', brandId: owner.brandId });
    const page = await newPage(stage);
    await signIn(page, stage, owner.email);
    await page.goto(`${stage.origin}/account/team`);
    await page.fill('#email', uniqueEmail('newcomer'));
    await Promise.all([page.waitForURL(/done=invited/), page.click('form.card button[type=submit]')]);
    const done = page.locator('main p[role=status]');
    expect(await done.textContent()).toContain('Invitation sent');
    const look = (selector: string) =>
      page
        .locator(selector)
        .first()
        .evaluate((el) => {
          const style = el.ownerDocument.defaultView!.getComputedStyle(el);
          return { background: style.backgroundColor, border: style.borderLeftColor };
        });
    const success = await look('main p[role=status]');
    await shoot(page, 'account-look-success');
    await page.goto(`${stage.origin}/account/team/${dev.userId}/remove`);
    const warning = await look('main p.warning');
    expect(success.background).not.toBe(warning.background);
    expect(success.border).not.toBe(warning.border);
    // Green: more green than red in both.
    for (const colour of [success.background, success.border]) {
      const [r, g] = colour.match(/\d+/g)!.map(Number);
      expect(g!, colour).toBeGreaterThan(r!);
    }
  });

  it('signs the invited person in once they choose their password; the e-mail names the company', async () => {
    const owner = await createUser(stage.t.deps, { role: 'owner' });
    const brandName = (await stage.t.deps.brands.get(owner.brandId)).name;
    const page = await newPage(stage);
    await signIn(page, stage, owner.email);
    await page.goto(`${stage.origin}/account/team`);
    const email = uniqueEmail('joining');
    await page.fill('#email', email);
    await page.selectOption('#role', 'finance');
    await Promise.all([page.waitForURL(/done=invited/), page.click('form.card button[type=submit]')]);
    const mail = stage.smtp.inbox.find((m) => m.to.includes(email))!;
    expect(mail.raw).toContain(`Subject: ${brandName} invited you to its delivery account`);

    const invitee = await newPage(stage);
    await invitee.goto(onStage(stage, stage.smtp.linkTo(email, '/account/invite')!));
    await invitee.fill('#password', PASSWORD);
    await Promise.all([
      invitee.waitForURL(`${stage.origin}/account?welcome=1`),
      invitee.click('main button[type=submit]'),
    ]);
    expect(await invitee.textContent('main p[role=status]')).toContain(`Welcome to ${brandName}`);
    expect(await invitee.textContent('main')).toContain('Finance');
    await shoot(invitee, 'account-look-invitation-accepted');
  });
});
