import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { type Browser, chromium, type Page } from 'playwright-core';
import type { Config } from '../../src/config.ts';
import { PASSWORD } from '../support/account-browser.ts';
import { buildTestApp, type TestApp } from '../support/app.ts';
import { onPickedPort } from '../support/picked-port.ts';
import { startSmtpReceiver } from '../support/smtp-receiver.ts';

/** Debian's Chromium; CHROMIUM_PATH points elsewhere (another install, or nowhere to see the skip). */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** Without Debian's Chromium the browser suite is skipped, not failed. */
export const hasChromium = existsSync(CHROMIUM);

/**
 * Debian's Chromium, headless, with a fresh profile and no traffic of its own (updates, sync,
 * QUIC); `extraArgs` add to those (a fake camera, say).
 */
export function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
      ...extraArgs,
    ],
  });
}

const SHOTS = 'test-results';

/**
 * Where the screenshots the docs show are written: `docs/images` with `npm run screenshots`, else
 * beside the others in test-results, so a plain test run leaves the checkout as it was.
 */
export const DOC_SHOTS = process.env.DOC_SCREENSHOTS === '1' ? 'docs/images' : SHOTS;
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

export interface Stage {
  t: TestApp;
  smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
  browser: Browser;
  /** http://127.0.0.1:PORT, where the real app listens. */
  origin: string;
  close(): Promise<void>;
}

/**
 * The real app on a loopback port, a real SMTP server catching its mail, and a headless Chromium.
 * `configForOrigin`: settings that name the app's own address (its `publicBaseUrl`, for redirects
 * back to the app), given the origin it will listen on; `clock`: the app's time (a test that needs a given hour of the day moves it).
 */
export async function openStage(
  options: {
    config?: Partial<Config>;
    /** For an app that must know its own address before it listens (a shop's callbacks): its settings for that origin. */
    configForOrigin?: (origin: string) => Partial<Config>;
    clock?: () => Date;
  } = {},
): Promise<Stage> {
  const smtp = await startSmtpReceiver();
  const build = (more: Partial<Config> = {}) =>
    buildTestApp({
      config: { smtpUrl: smtp.url, ...options.config, ...more },
      ...(options.clock ? { clock: options.clock } : {}),
    });
  const { configForOrigin } = options;
  let t: TestApp;
  if (configForOrigin) {
    t = await onPickedPort(async (port) => {
      const app = await build(configForOrigin(`http://127.0.0.1:${port}`));
      return {
        value: app,
        listen: () => app.app.listen({ host: '127.0.0.1', port }),
        close: () => app.close(),
      };
    });
  } else {
    t = await build();
    await t.app.listen({ host: '127.0.0.1', port: 0 });
  }
  const { port } = t.app.server.address() as AddressInfo;
  const browser = await launchChromium();
  await mkdir(SHOTS, { recursive: true });
  return {
    t,
    smtp,
    browser,
    origin: `http://127.0.0.1:${port}`,
    async close() {
      await browser.close();
      await t.close();
      await smtp.close();
    },
  };
}

/** A fresh page (its own cookies) in English, at desktop size. */
export async function newPage(stage: Stage): Promise<Page> {
  const context = await stage.browser.newContext({ viewport: DESKTOP, locale: 'en-GB' });
  return context.newPage();
}

/** The page as it is now, at desktop and phone sizes: test-results/NAME-desktop.png and -phone.png. */
export async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `${SHOTS}/${name}-desktop.png`, fullPage: true });
  await page.setViewportSize(PHONE);
  await page.screenshot({ path: `${SHOTS}/${name}-phone.png`, fullPage: true });
  await page.setViewportSize(DESKTOP);
}

/** Fills the sign-in form and sends it, as a person would. */
export async function signIn(page: Page, stage: Stage, email: string, password = PASSWORD): Promise<void> {
  await page.goto(`${stage.origin}/account/sign-in`);
  await page.fill('#email', email);
  await page.fill('#password', password);
  await Promise.all([page.waitForURL(`${stage.origin}/account`), page.click('button[type=submit]')]);
}

/** A link's path and query on the server under test (links in mails point at its configured base URL). */
export const onStage = (stage: Stage, link: string) =>
  `${stage.origin}${link.replace(/^https?:\/\/[^/]+/, '')}`;
