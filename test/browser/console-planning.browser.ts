import { mkdir } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parisToday } from '../../src/domain/calendar/paris-time.ts';
import { codeFor, OPERATOR_PASSWORD, operatorEmail, TEST_ACTOR } from '../support/operators.ts';
import { type PlanningDay, planningDay } from '../support/planning-day.ts';
import { createScratchDatabase } from '../support/scratch-database.ts';
import { hasChromium, openStage, type Stage } from './support.ts';

/**
 * The console's Planning page in a real Chromium against the real app on loopback (a database of
 * its own: the day's stops are every order due): a dispatcher optimises the day, drags a stop onto
 * another round with the mouse, moves another with the keyboard only, pins one, gives a round a
 * courier and a vehicle; a second dispatcher working from the page loaded before is told of the
 * conflict; a finance user gets the 403 page. Screenshots at 1366×768 and 1920×1080 in
 * docs/screenshots/.
 */
if (!hasChromium)
  console.warn('console-planning.browser.ts skipped: no Chromium at /usr/bin/chromium (CHROMIUM_PATH)');

const SHOTS = 'docs/screenshots';
const SIZES = [
  { width: 1366, height: 768 },
  { width: 1920, height: 1080 },
];

const shift = 0;
const clock = () => new Date(Date.now() + shift);

let stage: Stage;
let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
let day: PlanningDay;
let today: string;

beforeAll(async () => {
  if (!hasChromium) return;
  scratch = await createScratchDatabase();
  stage = await openStage({
    clock,
    config: { databaseUrl: scratch.url, optimiser: { url: null, timeoutMs: 2000, timeLimitMs: 400 } },
  });
  await mkdir(SHOTS, { recursive: true });
  today = parisToday(clock());
  day = await planningDay(stage.t, today, {
    orders: 22,
    crew: [
      { courier: 'Ana Lefèvre', vehicle: 'Cargo bike 1', parcels: 12, kg: 40, from: '08:00', to: '12:30' },
      { courier: 'Bruno Petit', vehicle: 'Cargo bike 2', parcels: 12, kg: 40, from: '08:00', to: '12:30' },
      { courier: 'Chloé Roux', vehicle: 'Cargo bike 3', parcels: 6, kg: 20, from: '09:00', to: '11:00' },
    ],
    spare: 'Van 7',
  });
}, 180_000);
afterAll(async () => {
  if (!hasChromium) return;
  await stage.close();
  await scratch.drop();
});

async function shoot(page: Page, name: string) {
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await page.screenshot({ path: `${SHOTS}/console-${name}-${size.width}x${size.height}.png` });
  }
  await page.setViewportSize(SIZES[0]!);
}

async function newPage(): Promise<Page> {
  const context = await stage.browser.newContext({ viewport: SIZES[0]!, locale: 'en-GB' });
  const page = await context.newPage();
  page.on('console', (m) => {
    if (/Content.Security.Policy|Refused to/i.test(m.text())) throw new Error(`CSP: ${m.text()}`);
  });
  page.on('pageerror', (err) => {
    throw err;
  });
  return page;
}

/** An operator made as `dlv operators add` would, through their first sign-in's pages. */
async function operator(name: string, role: 'dispatcher' | 'finance'): Promise<Page> {
  const email = operatorEmail(role);
  const { oneTimePassword } = await stage.t.deps.operators.add({ email, name, role }, TEST_ACTOR);
  const page = await newPage();
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
  return page;
}

/** The rounds as the page shows them, in order: id and the stops' values. */
async function roundsOf(page: Page) {
  const rounds: { id: string; name: string; stops: string[] }[] = [];
  for (const section of await page.locator('section.round').all()) {
    const stops: string[] = [];
    for (const li of await section.locator('li.stop').all())
      stops.push((await li.getAttribute('data-stop'))!);
    rounds.push({
      id: (await section.getAttribute('data-round'))!,
      name: (await section.locator('h2').textContent())!,
      stops,
    });
  }
  return rounds;
}

const submitted = (page: Page, action: Promise<unknown>) => Promise.all([page.waitForEvent('load'), action]);

/** A real mouse drag: press on the stop, move in steps, release on the top edge of `onto` (dropped before it). */
async function drag(page: Page, stop: string, onto: ReturnType<Page['locator']>) {
  const source = page.locator(stop);
  await source.scrollIntoViewIfNeeded();
  const from = (await source.boundingBox())!;
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(from.x + from.width / 2 + 20, from.y + from.height / 2, { steps: 4 });
  const to = (await onto.boundingBox())!;
  await submitted(
    page,
    (async () => {
      await page.mouse.move(to.x + to.width / 2, to.y + 4, { steps: 12 });
      await page.mouse.up();
    })(),
  );
}

describe.skipIf(!hasChromium)('the Planning page in Chromium', () => {
  it('optimise → drag a stop → move one by keyboard → pin → assign; a rival sees the conflict; finance is refused', async () => {
    const dispatcher = await operator('Dana Dispatch', 'dispatcher');
    await submitted(dispatcher, dispatcher.click('header nav a:has-text("Planning")'));
    expect(await dispatcher.textContent('h1')).toBe(`Planning — ${today}`);
    expect(await dispatcher.textContent('main')).toContain('No round on this day yet');

    // Optimise the day.
    await submitted(dispatcher, dispatcher.click('button:has-text("Optimise the day")'));
    expect(await dispatcher.textContent('.success')).toMatch(/The day is optimised \(in-process\): 3 round/);
    let rounds = await roundsOf(dispatcher);
    expect(rounds).toHaveLength(3);
    expect(await dispatcher.locator('.unplaced tbody tr').count()).toBeGreaterThan(0);
    await shoot(dispatcher, 'planning');
    // A reload shows the page as read later (the rounds the same).
    await dispatcher.goto(`${stage.origin}/console/planning`);
    rounds = await roundsOf(dispatcher);
    const [first, second, third] = rounds as [(typeof rounds)[0], (typeof rounds)[0], (typeof rounds)[0]];

    // A real mouse drag: the first round's first stop onto the second round, before its second stop.
    const dragged = first.stops[0]!;
    await drag(
      dispatcher,
      `#round-${first.id} li.stop[data-stop="${dragged}"]`,
      dispatcher.locator(`#round-${second.id} li.stop`).nth(1),
    );
    expect(await dispatcher.textContent('.success')).toContain(
      `Stop ${dragged.slice(2)} moved to round ${second.name}`,
    );
    rounds = await roundsOf(dispatcher);
    expect(rounds.find((r) => r.id === second.id)!.stops[1]).toBe(dragged);
    expect(rounds.find((r) => r.id === first.id)!.stops).not.toContain(dragged);

    // Within its own round: the second round's third stop dragged above its first.
    const reordered = rounds.find((r) => r.id === second.id)!.stops[2]!;
    await drag(
      dispatcher,
      `#round-${second.id} li.stop[data-stop="${reordered}"]`,
      dispatcher.locator(`#round-${second.id} li.stop`).first(),
    );
    expect(await dispatcher.textContent('.success')).toContain(
      `Stop ${reordered.slice(2)} is now stop 1 of round ${second.name}`,
    );
    rounds = await roundsOf(dispatcher);
    expect(rounds.find((r) => r.id === second.id)!.stops[0]).toBe(reordered);

    // The keyboard only: to the third round's stops, choose the first, then "Move to" the first round.
    const moving = rounds.find((r) => r.id === third.id)!.stops[0]!;
    await dispatcher.focus(`#round-${third.id} select[name=vehicle]`);
    await dispatcher.keyboard.press('Tab'); // the Assign button
    await dispatcher.keyboard.press('Tab'); // the stops (a radio group)
    await dispatcher.keyboard.press('Space');
    expect(await dispatcher.isChecked(`#round-${third.id} input[value="${moving}"]`)).toBe(true);
    await dispatcher.keyboard.press('Tab'); // "Move to"
    await dispatcher.keyboard.press('ArrowDown');
    expect(await dispatcher.inputValue(`#to-${third.id}`)).toMatch(new RegExp(`^${first.id}@`));
    await dispatcher.keyboard.press('Tab'); // Move
    await submitted(dispatcher, dispatcher.keyboard.press('Enter'));
    expect(await dispatcher.textContent('.success')).toContain(
      `Stop ${moving.slice(2)} moved to round ${first.name}`,
    );
    expect((await roundsOf(dispatcher)).find((r) => r.id === first.id)!.stops.at(-1)).toBe(moving);

    // Pin a stop of the second round.
    const pinnedStop = (await roundsOf(dispatcher)).find((r) => r.id === second.id)!.stops[0]!;
    await dispatcher.check(`#round-${second.id} input[value="${pinnedStop}"]`);
    await submitted(dispatcher, dispatcher.click(`#round-${second.id} button[value=pin]`));
    expect(await dispatcher.textContent('.success')).toContain('is pinned to round');
    expect(await dispatcher.textContent(`#round-${second.id} li.stop[data-stop="${pinnedStop}"]`)).toContain(
      'pinned',
    );

    // A rival dispatcher loads the page now; the first assigns the third round a courier and the spare van.
    const rival = await operator('Rémi Rival', 'dispatcher');
    await rival.goto(`${stage.origin}/console/planning`);
    await dispatcher.selectOption(`#courier-${third.id}`, day.couriers['Ana Lefèvre']!);
    await dispatcher.selectOption(`#vehicle-${third.id}`, day.vehicles['Van 7']!);
    await submitted(dispatcher, dispatcher.click(`#round-${third.id} form.assign button`));
    expect(await dispatcher.textContent('.success')).toContain(
      `Round ${third.name}: courier and vehicle saved.`,
    );
    expect(await dispatcher.inputValue(`#courier-${third.id}`)).toBe(day.couriers['Ana Lefèvre']);
    await shoot(dispatcher, 'planning-changed');

    // The rival, on the page loaded before the change, gives the same round to someone else: refused.
    await rival.selectOption(`#courier-${third.id}`, day.couriers['Bruno Petit']!);
    await submitted(rival, rival.click(`#round-${third.id} form.assign button`));
    expect(await rival.textContent('.error')).toContain(
      `Someone else changed round ${third.name} since this page was loaded: nothing was changed.`,
    );
    expect(await rival.inputValue(`#courier-${third.id}`)).toBe(day.couriers['Ana Lefèvre']);
    await rival.locator('.error').scrollIntoViewIfNeeded();
    await shoot(rival, 'planning-conflict');

    // In French.
    await dispatcher.goto(`${stage.origin}/console/planning?lang=fr`);
    expect(await dispatcher.textContent('h1')).toBe(`Planification — ${today}`);
    await shoot(dispatcher, 'planning-fr');

    // Finance: the 403 page, and no Planning in the navigation.
    const finance = await operator('Felix Finance', 'finance');
    const refused = await finance.goto(`${stage.origin}/console/planning`);
    expect(refused?.status()).toBe(403);
    expect(await finance.textContent('h1')).toBe('Not for your role');
    expect(await finance.locator('header nav a:has-text("Planning")').count()).toBe(0);
  });
});
