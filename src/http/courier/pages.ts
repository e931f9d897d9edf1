import type { CourierKey } from '../../i18n/courier.ts';
import type { Locale } from '../../i18n/locales.ts';
import { html, type SafeHtml } from '../shared/html.ts';
import { COURIER_PATH } from './session.ts';

/** What every courier page needs: language, words, the form token, who is signed in. */
export interface CourierPage {
  locale: Locale;
  t: (key: CourierKey, values?: Record<string, string | number>) => string;
  /** This page's address in the other language. */
  switchHref: string;
  csrf: string;
  courier: { name: string } | null;
}

const csrfField = (page: CourierPage) => html`<input type="hidden" name="_csrf" value="${page.csrf}">`;

function courierLayout(page: CourierPage, title: string, body: SafeHtml): string {
  const { t } = page;
  const other: Locale = page.locale === 'fr' ? 'en' : 'fr';
  const signOut = page.courier
    ? html`<form method="post" action="${COURIER_PATH}/logout">${csrfField(page)}<button type="submit">${t('signOut.submit')}</button></form>`
    : '';
  return html`<!doctype html>
<html lang="${page.locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} — ${t('app.name')}</title>
</head>
<body>
<header>
  <strong>${t('app.name')}</strong>
  ${page.courier ? html`<span>${page.courier.name}</span>` : ''}
  ${signOut}
  <a href="${page.switchHref}" hreflang="${other}" lang="${other}">${t('nav.lang')}</a>
</header>
<main>
<h1>${title}</h1>
${body}
</main>
</body>
</html>
`.value;
}

export function signInPage(page: CourierPage, form: { email?: string; error?: string } = {}): string {
  const { t } = page;
  return courierLayout(
    page,
    t('signIn.title'),
    html`${form.error ? html`<p role="alert">${form.error}</p>` : ''}
<form method="post" action="${COURIER_PATH}/login">
  ${csrfField(page)}
  <label>${t('signIn.email')} <input type="email" name="email" autocomplete="username" required value="${form.email ?? ''}"></label>
  <label>${t('signIn.password')} <input type="password" name="password" autocomplete="current-password" required></label>
  <button type="submit">${t('signIn.submit')}</button>
</form>`,
  );
}

export function messagePage(page: CourierPage, title: string, message: string): string {
  return courierLayout(
    page,
    title,
    html`<p>${message}</p><p><a href="${COURIER_PATH}/">${page.t('error.back')}</a></p>`,
  );
}
