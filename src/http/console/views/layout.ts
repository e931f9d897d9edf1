import type { Operator } from '../../../domain/operators/operator.ts';
import { type OpsScope, ROLE_SCOPES } from '../../../domain/operators/scopes.ts';
import type { Translate } from '../../../i18n/account.ts';
import type { Locale } from '../../../i18n/locales.ts';
import { html, type SafeHtml } from '../../shared/html.ts';

export const CONSOLE_PATH = '/console';

/** What every console page needs to draw its frame. */
export interface ConsoleContext {
  locale: Locale;
  t: Translate;
  /** This page's address in the other language. */
  switchHref: string;
  /** The signed-in operator (null on the sign-in and setup pages' frame). */
  operator: Operator | null;
  /** The form token: the session's, or the anonymous double-submit cookie's. */
  csrf: string;
  /** The current path, to mark the navigation's current page. */
  path: string;
}

export const csrfField = (ctx: ConsoleContext) =>
  html`<input type="hidden" name="_csrf" value="${ctx.csrf}">`;

/** Whether the signed-in operator's role grants `scope` (the navigation shows only what opens). */
export const may = (ctx: ConsoleContext, scope: OpsScope): boolean =>
  ctx.operator !== null && ROLE_SCOPES[ctx.operator.role].includes(scope);

/** The navigation: each page behind the scope its route requires (index.ts keeps them in step). */
const PAGES: { href: string; key: string; scope: OpsScope }[] = [
  { href: CONSOLE_PATH, key: 'nav.today', scope: 'rounds:read' },
  { href: `${CONSOLE_PATH}/map`, key: 'nav.map', scope: 'rounds:read' },
  { href: `${CONSOLE_PATH}/planning`, key: 'nav.planning', scope: 'rounds:read' },
  { href: `${CONSOLE_PATH}/exceptions`, key: 'nav.exceptions', scope: 'pickups:read' },
  { href: `${CONSOLE_PATH}/brands`, key: 'nav.brands', scope: 'brands:read' },
  { href: `${CONSOLE_PATH}/finance`, key: 'nav.finance', scope: 'invoices:read' },
  { href: `${CONSOLE_PATH}/search`, key: 'nav.search', scope: 'orders:read' },
  { href: `${CONSOLE_PATH}/people`, key: 'nav.people', scope: 'operators:read' },
  { href: `${CONSOLE_PATH}/tokens`, key: 'nav.tokens', scope: 'operators:read' },
  { href: `${CONSOLE_PATH}/audit`, key: 'nav.audit', scope: 'audit:read' },
];

/** The first page the operator's role opens: where signing in leads. */
export function homeOf(operator: Operator): string {
  return PAGES.find((p) => ROLE_SCOPES[operator.role].includes(p.scope))?.href ?? CONSOLE_PATH;
}

export function layout(
  ctx: ConsoleContext,
  title: string,
  body: SafeHtml,
  options: { wide?: boolean; scripts?: string[] } = {},
): string {
  const { t } = ctx;
  const other: Locale = ctx.locale === 'fr' ? 'en' : 'fr';
  const operator = ctx.operator;
  const nav = operator
    ? html`<nav aria-label="${t('nav.label')}"><ul>
        ${PAGES.filter((p) => may(ctx, p.scope)).map(
          (p) =>
            html`<li><a href="${p.href}"${ctx.path === p.href ? html` aria-current="page"` : ''}>${t(p.key)}</a></li>`,
        )}
      </ul></nav>
      <div class="who">
        <span>${t('nav.signedInAs', { name: operator.name, role: t(`role.${operator.role}`) })}</span>
        <form method="post" action="${CONSOLE_PATH}/sign-out" class="inline">${csrfField(ctx)}<button type="submit" class="link">${t('nav.signOut')}</button></form>
      </div>`
    : '';
  return html`<!doctype html>
<html lang="${ctx.locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} — ${t('app.name')}</title>
<link rel="stylesheet" href="${CONSOLE_PATH}/static/console.css">
${(options.scripts ?? []).map((s) => html`<script src="${CONSOLE_PATH}/static/${s}" defer></script>`)}
</head>
<body>
<a class="skip" href="#main">${t('nav.skip')}</a>
<header>
  <a class="brand" href="${CONSOLE_PATH}">${t('app.name')}</a>
  ${nav}
  <a class="lang" href="${ctx.switchHref}" hreflang="${other}" lang="${other}">${t('nav.lang')}</a>
</header>
<main id="main" tabindex="-1"${options.wide ? html` class="wide"` : ''}>
<h1>${title}</h1>
${body}
</main>
</body>
</html>
`.value;
}

/** A short message with a link, for errors and confirmations. */
export function messagePage(
  ctx: ConsoleContext,
  title: string,
  message: string,
  link?: { href: string; label: string },
): string {
  return layout(
    ctx,
    title,
    html`<p class="notice" role="status">${message}</p>${link ? html`<p><a href="${link.href}">${link.label}</a></p>` : ''}`,
  );
}

export const successNote = (message: string) => html`<p class="success" role="status">${message}</p>`;
export const errorNote = (message: string) => html`<p class="error" role="alert">${message}</p>`;

/** A date and time as the console shows them: Paris time, short. */
export function when(ctx: ConsoleContext, at: Date | null): string {
  if (!at) return '—';
  return new Intl.DateTimeFormat(ctx.locale === 'fr' ? 'fr-FR' : 'en-GB', {
    timeZone: 'Europe/Paris',
    dateStyle: 'short',
    timeStyle: 'medium',
  }).format(at);
}

/** A time of day, Paris time. */
export function timeOf(ctx: ConsoleContext, at: Date | null): string {
  if (!at) return '—';
  return new Intl.DateTimeFormat(ctx.locale === 'fr' ? 'fr-FR' : 'en-GB', {
    timeZone: 'Europe/Paris',
    timeStyle: 'medium',
  }).format(at);
}
