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
  /** The app's stylesheet (this release's): the pages look like the app they lead to. */
  stylesheet: string;
}

const csrfField = (page: CourierPage) => html`<input type="hidden" name="_csrf" value="${page.csrf}">`;

function courierLayout(page: CourierPage, title: string, body: SafeHtml): string {
  const { t } = page;
  const other: Locale = page.locale === 'fr' ? 'en' : 'fr';
  // Who is signed in, and the way out, under the page: the phone's bar holds the name and the language.
  const signOut = page.courier
    ? html`<form method="post" action="${COURIER_PATH}/logout" class="signed-in">${csrfField(page)}<span>${page.courier.name}</span> <button type="submit" class="link">${t('signOut.submit')}</button></form>`
    : '';
  return html`<!doctype html>
<html lang="${page.locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
<meta name="robots" content="noindex, nofollow">
<meta name="theme-color" content="#14532d">
<title>${title} — ${t('app.name')}</title>
<link rel="stylesheet" href="${page.stylesheet}">
</head>
<body>
<header class="bar">
  <span class="title">${t('app.name')}</span>
  <a class="lang" href="${page.switchHref}" hreflang="${other}" lang="${other}">${t('nav.lang')}</a>
</header>
<main class="page">
<h1>${title}</h1>
${body}
${signOut}
</main>
</body>
</html>
`.value;
}

const alerts = (errors: readonly string[]) =>
  errors.map((error) => html`<p class="flash error" role="alert">${error}</p>`);

export function signInPage(page: CourierPage, form: { email?: string; error?: string } = {}): string {
  const { t } = page;
  return courierLayout(
    page,
    t('signIn.title'),
    html`${alerts(form.error ? [form.error] : [])}
<form method="post" action="${COURIER_PATH}/login" class="stack">
  ${csrfField(page)}
  <label for="email">${t('signIn.email')}</label>
  <input id="email" type="email" name="email" autocomplete="username" inputmode="email" autocapitalize="none" spellcheck="false" required value="${form.email ?? ''}">
  <label for="password">${t('signIn.password')}</label>
  <input id="password" type="password" name="password" autocomplete="current-password" required>
  <button type="submit" class="primary wide">${t('signIn.submit')}</button>
</form>
<p class="muted">${t('signIn.help')}</p>`,
  );
}

/**
 * The courier's own password: the first sign-in's (the one-time password was just typed, so it
 * is not asked again), or a change from the app (the current password first).
 */
export function passwordPage(
  page: CourierPage,
  form: { first: boolean; email: string; errors?: readonly string[] },
): string {
  const { t } = page;
  return courierLayout(
    page,
    t(form.first ? 'password.firstTitle' : 'password.changeTitle'),
    html`${form.first ? html`<p>${t('password.firstIntro')}</p>` : ''}
${alerts(form.errors ?? [])}
<form method="post" action="${COURIER_PATH}/password" class="stack">
  ${csrfField(page)}
  <input type="email" name="username" autocomplete="username" value="${form.email}" hidden readonly>
  ${
    form.first
      ? ''
      : html`<label for="current_password">${t('password.current')}</label>
  <input id="current_password" type="password" name="current_password" autocomplete="current-password" required>`
  }
  <label for="password">${t('password.new')}</label>
  <input id="password" type="password" name="password" autocomplete="new-password" minlength="12" maxlength="128" required aria-describedby="password-rules">
  <p class="muted hint" id="password-rules">${t('password.rules')}</p>
  <label for="password_confirm">${t('password.confirm')}</label>
  <input id="password_confirm" type="password" name="password_confirm" autocomplete="new-password" minlength="12" maxlength="128" required>
  <button type="submit" class="primary wide">${t('password.submit')}</button>
</form>
${form.first ? '' : html`<p><a href="${COURIER_PATH}/">${t('password.back')}</a></p>`}`,
  );
}

export function messagePage(page: CourierPage, title: string, message: string): string {
  return courierLayout(
    page,
    title,
    html`<p>${message}</p><p><a href="${COURIER_PATH}/">${page.t('error.back')}</a></p>`,
  );
}
