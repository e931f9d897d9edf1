import { type FieldErrors, inputField } from '../../../http/account/views/form-fields.ts';
import { csrfField, layout, type PageContext } from '../../../http/account/views/layout.ts';
import { html, type SafeHtml } from '../../../http/shared/html.ts';

/** The WooCommerce form's state when the page is shown again: the store's address as typed, and what was wrong. */
export interface WooFormState {
  storeUrl?: string;
  errors?: FieldErrors;
}

/** WooCommerce: the store's address, and a pasted key pair or nothing (then the one-click approval). */
export function wooConnectCard(ctx: PageContext, on: boolean, state: WooFormState = {}): SafeHtml {
  const { t } = ctx;
  if (!on) return html`<p class="notice">${t('shops.wooNotEnabled')}</p>`;
  return html`<form method="post" action="/account/shops/woocommerce/connect" class="card">
  <h2>${t('shops.wooConnect')}</h2>
  ${csrfField(ctx)}
  ${inputField(t('shops.wooUrl'), 'url', {
    value: state.storeUrl ?? '',
    error: state.errors?.url,
    maxlength: 255,
    required: true,
    placeholder: 'https://boutique.example.fr',
  })}
  ${inputField(t('shops.wooKey'), 'consumer_key', { value: '', error: state.errors?.consumer_key, maxlength: 60, placeholder: 'ck_…' })}
  ${inputField(t('shops.wooSecret'), 'consumer_secret', { value: '', error: state.errors?.consumer_secret, maxlength: 60, placeholder: 'cs_…' })}
  <p class="muted hint">${t('shops.wooHint')}</p>
  <button type="submit">${t('shops.next')}</button>
</form>`;
}

/** The last step before the store's approval page. */
export function continueToWooPage(ctx: PageContext, store: string, connectHref: string): string {
  const { t } = ctx;
  return layout(
    ctx,
    t('shops.continueTitle', { shop: store }),
    html`<p>${t('shops.wooContinueText')}</p>
<p><a class="button" href="${connectHref}">${t('shops.wooContinue')}</a></p>
<p><a href="/account/shops">${t('shops.cancel')}</a></p>`,
  );
}
