import type { Connection, Platform, SyncProblem } from '../../../connectors/connection.ts';
import { html } from '../../shared/html.ts';
import { type AccountPart, formStateOf, type ShopsPageState } from '../shop-part.ts';
import { parisDateTime } from './format.ts';
import { csrfField, layout, type PageContext, successNote } from './layout.ts';
import { problemText } from './problem-text.ts';

/** One of the brand's links as the page shows it. */
interface ShopCard {
  connection: Connection;
  problems: number;
  lastSyncAt: Date | null;
  lastProblem: SyncProblem | null;
  /** What its platform's part shows besides the common health (a poll's, pushes'…). */
  info?: unknown;
}

/** A shop platform on the page: its part (src/connectors/<platform>/account/) and whether it is on. */
interface ShopsPagePlatform {
  platform: Platform;
  // biome-ignore lint/suspicious/noExplicitAny: each platform's part has its own wired type and state
  part: AccountPart<any>;
  on: boolean;
}

export interface ShopsPageData {
  shops: ShopCard[];
  problems: SyncProblem[];
  /** The bound on `problems` (the page says when it is reached). */
  problemLimit: number;
  /** Every platform of the registry, in the order of their connect cards. */
  platforms: ShopsPagePlatform[];
  /** Owners and developers connect, change and disconnect; the others read. */
  mayManage: boolean;
  /** Connecting also takes a confirmed e-mail address (its shop creates billable orders). */
  mayLink: boolean;
}

const when = (ctx: PageContext, date: Date) =>
  html`<time datetime="${date.toISOString()}">${parisDateTime(ctx, date)}</time>`;

/**
 * A platform's own wording when it has one (`shops.<platform>.health.broken`), else the page's
 * (`shops.health.broken`): the default, worded for the first platform, names no other's steps.
 */
function platformText(ctx: PageContext, c: Connection, suffix: string): string {
  const own = `shops.${c.platform}.${suffix}`;
  const text = ctx.t(own);
  return text === own ? ctx.t(`shops.${suffix}`) : text;
}

const statusBadge = (ctx: PageContext, c: Connection) =>
  html`<span class="badge badge-shop-${c.status}">${ctx.t(`shops.status.${c.status}`)}</span>`;

const partOf = (data: ShopsPageData, c: Connection) =>
  data.platforms.find((p) => p.platform === c.platform)?.part;

/** The connect cards (for the people who may change shops; the others are told they only read). */
function connectCards(ctx: PageContext, data: ShopsPageData, state: ShopsPageState) {
  const cards = data.platforms.map((p) =>
    data.mayManage ? p.part.connectCard(ctx, p.on, formStateOf(state, p.platform)) : '',
  );
  return html`${data.mayManage ? '' : html`<p class="muted">${ctx.t('shops.readOnly')}</p>`}${cards.map((card, i) => (i === 0 ? card : html`\n${card}`))}`;
}

/** The polled platforms' health: what the last poll met, what was repaired on the shop. */
function syncHealth(ctx: PageContext, c: Connection, part: AccountPart<unknown> | undefined) {
  const notes = [c.syncError, c.syncState.webhookNotice].filter((n): n is string => Boolean(n));
  if (!part?.polled || notes.length === 0) return '';
  return html`<dt>${ctx.t('shops.syncHealth')}</dt><dd class="health-broken">${notes.join(' — ')}</dd>`;
}

function radio(name: string, value: string, label: string, checked: boolean) {
  return html`<label class="check"><input type="radio" name="${name}" value="${value}"${checked ? html` checked` : ''}> ${label}</label>`;
}

function settingsForm(ctx: PageContext, c: Connection) {
  const { t } = ctx;
  return html`<form method="post" action="/account/shops/${c.id}/settings" class="settings">
  <h3>${t('shops.settings')}</h3>
  ${csrfField(ctx)}
  <div class="choices">
  <fieldset><legend>${t('shops.orderFilter')}</legend>
  ${radio('order_filter', 'ours', t('shops.orderFilter.ours'), c.orderFilter === 'ours')}
  ${radio('order_filter', 'all', t('shops.orderFilter.all'), c.orderFilter === 'all')}
  </fieldset>
  <fieldset><legend>${t('shops.notify')}</legend>
  ${radio('notify_customer', 'yes', platformText(ctx, c, 'notify.yes'), c.notifyCustomer)}
  ${radio('notify_customer', 'no', t('shops.notify.no'), !c.notifyCustomer)}
  </fieldset>
  </div>
  <p class="actions"><button type="submit">${t('shops.save')}</button>
  <a class="button danger" href="/account/shops/${c.id}/disconnect">${t('shops.disconnect')}</a></p>
</form>`;
}

/** The settings as words, for the people who may not change them. */
function settingsText(ctx: PageContext, c: Connection) {
  const { t } = ctx;
  return html`<dt>${t('shops.orderFilter')}</dt><dd>${t(`shops.orderFilter.${c.orderFilter}`)}</dd>
  <dt>${t('shops.notify')}</dt><dd>${c.notifyCustomer ? platformText(ctx, c, 'notify.yes') : t('shops.notify.no')}</dd>`;
}

function shopCard(ctx: PageContext, data: ShopsPageData, card: ShopCard, state: ShopsPageState) {
  const { t } = ctx;
  const { mayManage } = data;
  const c = card.connection;
  const part = partOf(data, c);
  const healthy = c.status === 'active';
  // An active link may carry a note (a shop out of reach since…, the jobs retrying): shown too.
  const health = healthy
    ? html`${t('shops.health.active')}${c.statusReason ? html`<br><small class="muted">${c.statusReason}</small>` : ''}`
    : html`${platformText(ctx, c, 'health.broken')}${c.statusReason ? html`<br><small class="muted">${c.statusReason}</small>` : ''}`;
  const problem = card.lastProblem;
  return html`<section class="card shop" data-connection="${c.id}" data-status="${c.status}">
<h2>${c.shop} ${statusBadge(ctx, c)}</h2>
<dl class="health">
  <dt>${t('shops.status')}</dt><dd class="${healthy ? 'ok' : 'health-broken'}">${t(`shops.platform.${c.platform}`)} — ${health}</dd>
  <dt>${t('shops.lastSync')}</dt><dd>${card.lastSyncAt ? when(ctx, card.lastSyncAt) : t('shops.never')}</dd>
  <dt>${t('shops.lastError')}</dt><dd>${
    problem
      ? html`${when(ctx, problem.createdAt)} — ${t(`shops.kind.${problem.kind}`)}${problem.externalName ? html` (${problem.externalName})` : ''}`
      : t('shops.noError')
  }</dd>
  ${syncHealth(ctx, c, part)}
  <dt>${t('shops.problemCount')}</dt><dd>${card.problems > 0 ? html`<a href="#problems">${card.problems}</a>` : '0'}</dd>
  <dt>${t('shops.linkedAt')}</dt><dd>${when(ctx, c.createdAt)}</dd>
  ${card.info !== undefined && part?.healthRows ? part.healthRows(ctx, card.info) : ''}
  ${mayManage ? '' : settingsText(ctx, c)}
</dl>
${mayManage ? settingsForm(ctx, c) : ''}
${mayManage && part?.linkForms ? part.linkForms(ctx, c, formStateOf(state, c.platform)) : ''}
</section>`;
}

function pastTable(ctx: PageContext, past: Connection[]) {
  const { t } = ctx;
  if (past.length === 0) return '';
  return html`<section><h2>${t('shops.past')}</h2>
<table class="list"><thead><tr><th>${t('shops.problem.shop')}</th><th>${t('shops.linkedAt')}</th><th>${t('shops.disconnectedAt')}</th><th>${t('shops.reason')}</th></tr></thead>
<tbody>${past.map(
    (c) => html`<tr data-connection="${c.id}" data-status="${c.status}">
  <td data-label="${t('shops.problem.shop')}" class="long">${c.shop}</td>
  <td data-label="${t('shops.linkedAt')}">${when(ctx, c.createdAt)}</td>
  <td data-label="${t('shops.disconnectedAt')}">${c.disconnectedAt ? when(ctx, c.disconnectedAt) : '—'}</td>
  <td data-label="${t('shops.reason')}" class="long">${c.statusReason ?? '—'}</td>
</tr>`,
  )}</tbody></table></section>`;
}

function problemsTable(ctx: PageContext, data: ShopsPageData) {
  const { t } = ctx;
  const shopOf = new Map(data.shops.map((s) => [s.connection.id, s.connection.shop]));
  const rows = data.problems.map(
    (p) => html`<tr data-problem="${p.id}">
  <td data-label="${t('shops.problem.at')}" class="date">${when(ctx, p.createdAt)}</td>
  <td data-label="${t('shops.problem.shop')}" class="long">${shopOf.get(p.connectionId) ?? '—'}</td>
  <td data-label="${t('shops.problem.order')}" class="nowrap">${p.externalName ?? '—'}</td>
  <td data-label="${t('shops.problem.kind')}">${t(`shops.kind.${p.kind}`)}</td>
  <td data-label="${t('shops.problem.message')}" class="long">${problemText(ctx, p)}</td>
</tr>`,
  );
  return html`<section id="problems"><h2>${t('shops.problems')}</h2>
${
  data.problems.length === 0
    ? html`<p>${t('shops.noProblems')}</p>`
    : html`<p class="muted">${t('shops.problemsIntro')}${
        data.problems.length >= data.problemLimit
          ? html` ${t('shops.problemsLimit', { n: String(data.problemLimit) })}`
          : ''
      }</p>
<table class="list problems"><thead><tr><th>${t('shops.problem.at')}</th><th>${t('shops.problem.shop')}</th><th>${t('shops.problem.order')}</th><th>${t('shops.problem.kind')}</th><th>${t('shops.problem.message')}</th></tr></thead>
<tbody>${rows}</tbody></table>`
}</section>`;
}

/** `/account/shops`: connect a store, the brand's links with their health and settings, the sync problems. */
export function shopsPage(ctx: PageContext, data: ShopsPageData, state: ShopsPageState = {}): string {
  const { t } = ctx;
  const live = data.shops.filter((s) => s.connection.status !== 'disconnected');
  const past = data.shops.filter((s) => s.connection.status === 'disconnected').map((s) => s.connection);
  return layout(
    ctx,
    t('shops.title'),
    html`<p>${t('shops.intro')}</p>
<p>${t('shops.labels')} <a href="/account/orders">${t('orders.title')} →</a></p>
${state.notice ? successNote(state.notice) : ''}
${state.error ? html`<p class="error" role="alert">${state.error}</p>` : ''}
${
  data.mayManage && !data.mayLink
    ? html`<p class="notice">${t('shops.verifyFirst')}</p>
<form method="post" action="/account/verify/resend" class="inline">${csrfField(ctx)}<button type="submit">${t('verify.resend')}</button></form>`
    : connectCards(ctx, data, state)
}
<h2>${t('shops.yours')}</h2>
${live.length === 0 ? html`<p>${t('shops.none')}</p>` : live.map((s) => shopCard(ctx, data, s, state))}
${problemsTable(ctx, data)}
${pastTable(ctx, past)}`,
  );
}

/**
 * What a shop's link into the account area lands on (a platform's app URL or plugin button): which
 * store would be linked to which company, and the Shops page's form to go on.
 */
export function confirmShopPage(
  ctx: PageContext,
  link: {
    platform: Platform;
    shop: string;
    action: string;
    fields: Record<string, string>;
  },
): string {
  const { t } = ctx;
  return layout(
    ctx,
    t('shops.continueTitle', { shop: link.shop }),
    html`<p class="warning">${t('shops.confirmText', { shop: link.shop, brand: ctx.user!.brandName })}</p>
<form method="post" action="${link.action}" class="inline" data-platform="${link.platform}">${csrfField(ctx)}${Object.entries(
      link.fields,
    ).map(
      ([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`,
    )}<button type="submit">${t('shops.confirmSubmit')}</button></form>
<a href="/account/shops">${t('shops.cancel')}</a>`,
  );
}

/** The confirmation a disconnect asks for (a second page: no script needed). */
export function disconnectPage(ctx: PageContext, c: Connection): string {
  const { t } = ctx;
  return layout(
    ctx,
    t('shops.disconnectTitle', { shop: c.shop }),
    html`<p class="warning">${platformText(ctx, c, 'disconnectWarning')}</p>
<form method="post" action="/account/shops/${c.id}/disconnect" class="inline">${csrfField(ctx)}<button type="submit" class="danger">${t('shops.disconnectConfirm')}</button></form>
<a href="/account/shops">${t('shops.cancel')}</a>`,
  );
}

/** After a disconnect: done here, and whether the shop still holds our registrations. */
export function disconnectedPage(
  ctx: PageContext,
  c: Connection,
  remote: 'removed' | 'failed' | 'none',
): string {
  const { t } = ctx;
  return layout(
    ctx,
    t('shops.disconnectedTitle'),
    html`${successNote(t('shops.disconnectedDone', { shop: c.shop }))}
<p class="${remote === 'failed' ? 'warning' : ''}" data-remote="${remote}">${platformText(ctx, c, `remote.${remote}`)}</p>
<p><a href="/account/shops">${t('shops.back')}</a></p>`,
  );
}
