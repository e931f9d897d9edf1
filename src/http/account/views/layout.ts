import type { User } from '../../../domain/accounts/user.ts';
import { canEditRecipientSettings } from '../../../domain/recipients/settings-service.ts';
import { canSeeWebhooks } from '../../../domain/webhooks/webhook-requests.ts';
import type { Translate } from '../../../i18n/account.ts';
import type { Locale } from '../../../i18n/locales.ts';
import { html, type SafeHtml } from '../../shared/html.ts';

/** What every page needs to draw its frame: language, words, who is signed in, the form token. */
export interface PageContext {
  locale: Locale;
  t: Translate;
  /** This page's address in the other language (its query kept: a reset link's token survives). */
  switchHref: string;
  user: User | null;
  /** The CSRF token of the forms on this page (the session's, or the anonymous cookie's). */
  csrf: string;
  /** Test mode's data is shown (`?mode=test`, kept in the links between its pages). */
  testMode?: boolean;
}

/** `href` in the data mode the page shows: test data stays test data from page to page. */
export const inMode = (ctx: Pick<PageContext, 'testMode'>, href: string): string =>
  ctx.testMode ? `${href}${href.includes('?') ? '&' : '?'}mode=test` : href;

/** The live/test switch of the orders, keys and webhooks pages, and the test data's reset. */
export function dataSwitch(ctx: PageContext, path: string) {
  const { t } = ctx;
  const current = (on: boolean) => (on ? html` aria-current="page" class="current"` : '');
  const mayDelete = ctx.user !== null && ctx.user.role !== 'finance';
  return html`<nav class="data-switch" aria-label="${t('testData.switch')}">${t('testData.switch')}:
  <a href="${path}"${current(!ctx.testMode)}>${t('testData.live')}</a>
  <a href="${path}?mode=test"${current(ctx.testMode === true)}>${t('testData.test')}</a>
  ${ctx.testMode && mayDelete ? html`<a class="button danger" href="/account/test-data/delete?mode=test">${t('testData.delete')}</a>` : ''}
</nav>`;
}

export const csrfField = (ctx: PageContext) => html`<input type="hidden" name="_csrf" value="${ctx.csrf}">`;

export function layout(ctx: PageContext, title: string, body: SafeHtml): string {
  const { t } = ctx;
  const other: Locale = ctx.locale === 'fr' ? 'en' : 'fr';
  const nav = ctx.user
    ? html`<nav aria-label="account">
        <a href="/account">${t('nav.home')}</a>
        ${ctx.user.role === 'finance' ? '' : html`<a href="${inMode(ctx, '/account/keys')}">${t('nav.keys')}</a>`}
        <a href="${inMode(ctx, '/account/orders')}">${t('nav.orders')}</a>
        <a href="/account/pickups">${t('nav.pickups')}</a>
        <a href="/account/invoices">${t('nav.invoices')}</a>
        <a href="/account/emissions">${t('nav.emissions')}</a>
        <a href="/account/rates">${t('nav.rates')}</a>
        ${canSeeWebhooks(ctx.user.role) ? html`<a href="${inMode(ctx, '/account/webhooks')}">${t('nav.webhooks')}</a>` : ''}
        <a href="/account/shops">${t('nav.shops')}</a>
        <a href="/account/company">${t('nav.company')}</a>
        ${canEditRecipientSettings(ctx.user.role) ? html`<a href="/account/notifications">${t('nav.notifications')}</a>` : ''}
        ${ctx.user.role === 'owner' ? html`<a href="/account/team">${t('nav.team')}</a>` : ''}
        <form method="post" action="/account/sign-out" class="inline">${csrfField(ctx)}<button type="submit" class="link">${t('nav.signOut')}</button></form>
      </nav>`
    : '';
  return html`<!doctype html>
<html lang="${ctx.locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} — ${t('app.name')}</title>
<link rel="stylesheet" href="/account/static/account.css">
</head>
<body>
<header>
  <a class="brand" href="/account">${t('app.name')}</a>
  ${nav}
  <a class="lang" href="${ctx.switchHref}" hreflang="${other}" lang="${other}">${t('nav.lang')}</a>
</header>
<main>
${ctx.testMode ? html`<p class="test-banner" role="note">${t('testData.banner')}</p>` : ''}
<h1>${title}</h1>
${body}
</main>
</body>
</html>
`.value;
}

/**
 * What a done action says on the page it leads to: green, announced politely to screen readers
 * (`notice` is for information, `warning` for what the person must watch out for).
 */
export const successNote = (message: string) => html`<p class="success" role="status">${message}</p>`;

/** A short message (with an optional link), for confirmations and errors. */
export function messagePage(
  ctx: PageContext,
  title: string,
  message: string,
  link?: { href: string; label: string },
) {
  return layout(
    ctx,
    title,
    html`<p class="notice">${message}</p>${link ? html`<p><a href="${link.href}">${link.label}</a></p>` : ''}`,
  );
}
