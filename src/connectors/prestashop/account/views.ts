import { type FieldErrors, inputField } from '../../../http/account/views/form-fields.ts';
import { parisDateTime } from '../../../http/account/views/format.ts';
import { csrfField, layout, type PageContext } from '../../../http/account/views/layout.ts';
import { html, type SafeHtml } from '../../../http/shared/html.ts';
import type { Connection } from '../../connection.ts';

/** What the Shops page shows of a PrestaShop link beside its health (prestashop_shops, the inbox). */
export interface PrestaShopCardInfo {
  pollEnabled: boolean;
  lastPolledAt: Date | null;
  /** The high-water mark, in the shop's wall-clock time (`YYYY-MM-DD HH:MM:SS`). */
  polledThrough: string | null;
  lastPushAt: Date | null;
}

/** The PrestaShop forms' state when the page is shown again: what was typed, and what was wrong. */
export interface PrestaShopFormState {
  url?: string;
  errors?: FieldErrors;
  /** The link whose key form the errors belong to (`ps_new_key`). */
  keyFor?: string;
}

/** The form fields, by the bridge's field names (`fieldErrors`). */
export const PRESTASHOP_CONNECT_FIELDS = {
  url: { name: 'ps_url', label: 'shops.prestashop.urlField' },
  key: { name: 'ps_key', label: 'shops.prestashop.keyField' },
} as const;
export const PRESTASHOP_KEY_FIELDS = {
  key: { name: 'ps_new_key', label: 'shops.prestashop.newKeyField' },
} as const;

const when = (ctx: PageContext, date: Date | null) =>
  date
    ? html`<time datetime="${date.toISOString()}">${parisDateTime(ctx, date)}</time>`
    : ctx.t('shops.never');

/** "Connect a PrestaShop shop": for the people who may change shops (the page says who otherwise). */
export function prestashopConnectCard(ctx: PageContext, state: PrestaShopFormState = {}): SafeHtml {
  const { t } = ctx;
  const errors = state.keyFor ? {} : (state.errors ?? {});
  return html`<form method="post" action="/account/shops/prestashop/connect" class="card" id="connect-prestashop">
  <h2>${t('shops.prestashop.connect')}</h2>
  <p class="muted hint">${t('shops.prestashop.intro')}</p>
  ${csrfField(ctx)}
  ${inputField(t('shops.prestashop.urlField'), 'ps_url', {
    value: state.url ?? '',
    error: errors.ps_url,
    maxlength: 300,
    required: true,
    type: 'url',
    placeholder: 'https://boutique.example.fr',
  })}
  <p class="muted hint">${t('shops.prestashop.urlHint')}</p>
  ${inputField(t('shops.prestashop.keyField'), 'ps_key', {
    error: errors.ps_key,
    maxlength: 64,
  })}
  <p class="muted hint">${t('shops.prestashop.keyHint')}</p>
  <button type="submit">${t('shops.prestashop.submit')}</button>
</form>`;
}

/** The poll and the pushes, as more lines of the link's health list. */
export function prestashopHealthRows(ctx: PageContext, info: PrestaShopCardInfo): SafeHtml {
  const { t } = ctx;
  return html`<dt>${t('shops.prestashop.lastPush')}</dt><dd>${when(ctx, info.lastPushAt)}</dd>
  <dt>${t('shops.prestashop.poll')}</dt><dd data-poll="${info.pollEnabled ? 'on' : 'off'}">${
    info.pollEnabled ? t('shops.prestashop.poll.on') : t('shops.prestashop.poll.off')
  }</dd>
  ${
    info.pollEnabled
      ? html`<dt>${t('shops.prestashop.lastPoll')}</dt><dd>${when(ctx, info.lastPolledAt)}</dd>
  <dt>${t('shops.prestashop.polledThrough')}</dt><dd>${
    info.polledThrough
      ? html`${info.polledThrough} <small class="muted">${t('shops.prestashop.shopTime')}</small>`
      : '—'
  }</dd>`
      : ''
  }`;
}

/** Below the settings: the Webservice key (added or replaced) and a new shop secret. */
export function prestashopLinkForms(
  ctx: PageContext,
  c: Connection,
  state: PrestaShopFormState = {},
): SafeHtml {
  const { t } = ctx;
  const error = state.keyFor === c.id ? state.errors?.ps_new_key : undefined;
  // One form per link on the page: the field's id carries the link's so labels stay unique.
  const id = `ps_new_key_${c.id}`;
  return html`<form method="post" action="/account/shops/${c.id}/prestashop/key" class="settings">
  <h3>${t('shops.prestashop.keyTitle')}</h3>
  ${csrfField(ctx)}
  <label for="${id}">${t('shops.prestashop.newKeyField')}</label>
  <input id="${id}" name="ps_new_key" type="text" maxlength="64" required autocomplete="off"${
    error ? html` aria-invalid="true" aria-describedby="${id}-error"` : ''
  }>
  ${error ? html`<p class="field-error" id="${id}-error">${error}</p>` : ''}
  <p class="muted hint">${t('shops.prestashop.keyReplaceHint')}</p>
  <p class="actions"><button type="submit">${t('shops.prestashop.keySave')}</button>
  <a class="button" href="/account/shops/${c.id}/prestashop/secret">${t('shops.prestashop.rotate')}</a></p>
</form>`;
}

/** The module's settings with what goes in each: our API base, the connection id, the secret. */
function moduleSettings(
  ctx: PageContext,
  c: Connection,
  secret: string,
  apiBaseUrl: string | null,
): SafeHtml {
  const { t } = ctx;
  const row = (label: string, value: SafeHtml | string) => html`<dt>${label}</dt><dd>${value}</dd>`;
  return html`<dl class="health module-settings">
  ${
    apiBaseUrl === null
      ? ''
      : html`${row(t('shops.prestashop.field.apiKey'), html`${t('shops.prestashop.field.apiKeyValue')} <a href="/account/keys">${t('nav.keys')}</a>`)}
  ${row(t('shops.prestashop.field.baseUrl'), html`<code>${apiBaseUrl}</code>`)}`
  }
  ${row(t('shops.prestashop.field.connectionId'), html`<code data-connection-id>${c.id}</code>`)}
  ${row(t('shops.prestashop.field.secret'), html`<span class="secret"><code data-secret>${secret}</code></span>`)}
</dl>`;
}

/** After linking: the connection id and the secret, shown this once, and what to do in the shop. */
export function prestashopLinkedPage(
  ctx: PageContext,
  linked: { connection: Connection; secret: string; pollEnabled: boolean; apiBaseUrl: string },
): string {
  const { t } = ctx;
  const c = linked.connection;
  return layout(
    ctx,
    t('shops.prestashop.linkedTitle', { shop: c.shop }),
    html`<p class="warning" role="alert">${t('shops.prestashop.once')}</p>
<section class="card">
<h2>${t('shops.prestashop.steps')}</h2>
<ol class="steps">
  <li>${t('shops.prestashop.step.upload')}</li>
  <li>${t('shops.prestashop.step.configure')}
${moduleSettings(ctx, c, linked.secret, linked.apiBaseUrl)}</li>
  <li>${t('shops.prestashop.step.save')}</li>
</ol>
<p data-poll="${linked.pollEnabled ? 'on' : 'off'}">${
      linked.pollEnabled ? t('shops.prestashop.pollOnLinked') : t('shops.prestashop.pollOffLinked')
    }</p>
</section>
<p><a href="/account/shops">${t('shops.back')}</a></p>`,
  );
}

/** The confirmation a new secret asks for: the module's pushes stop until it has the new one. */
export function rotateSecretPage(ctx: PageContext, c: Connection): string {
  const { t } = ctx;
  return layout(
    ctx,
    t('shops.prestashop.rotateTitle', { shop: c.shop }),
    html`<p class="warning">${t('shops.prestashop.rotateWarning')}</p>
<form method="post" action="/account/shops/${c.id}/prestashop/secret" class="inline">${csrfField(ctx)}<button type="submit" class="danger">${t('shops.prestashop.rotateConfirm')}</button></form>
<a href="/account/shops">${t('shops.cancel')}</a>`,
  );
}

/** The new secret, shown once. */
export function secretRotatedPage(ctx: PageContext, c: Connection, secret: string): string {
  const { t } = ctx;
  return layout(
    ctx,
    t('shops.prestashop.rotatedTitle', { shop: c.shop }),
    html`<p class="warning" role="alert">${t('shops.prestashop.rotatedText')}</p>
${moduleSettings(ctx, c, secret, null)}
<p><a href="/account/shops">${t('shops.back')}</a></p>`,
  );
}
