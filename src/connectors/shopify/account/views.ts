import { type FieldErrors, inputField } from '../../../http/account/views/form-fields.ts';
import { csrfField, layout, type PageContext } from '../../../http/account/views/layout.ts';
import { html, type SafeHtml } from '../../../http/shared/html.ts';

/** The Shopify form's state when the page is shown again: the store as typed, and what was wrong. */
export interface ShopifyFormState {
  shop?: string;
  errors?: FieldErrors;
}

/** "Connect a Shopify store": its name, then the install (when the operator configured the app). */
export function shopifyConnectCard(ctx: PageContext, on: boolean, state: ShopifyFormState = {}): SafeHtml {
  const { t } = ctx;
  if (!on) return html`<p class="notice">${t('shops.notEnabled')}</p>`;
  return html`<form method="post" action="/account/shops/connect" class="card">
  <h2>${t('shops.connect')}</h2>
  ${csrfField(ctx)}
  ${inputField(t('shops.shopField'), 'shop', {
    value: state.shop ?? '',
    error: state.errors?.shop,
    maxlength: 255,
    required: true,
    placeholder: 'acme.myshopify.com',
  })}
  <p class="muted hint">${t('shops.shopHint')}</p>
  <button type="submit">${t('shops.next')}</button>
</form>`;
}

/** The last step before Shopify: which store, and what Shopify will ask. */
export function continueToShopifyPage(ctx: PageContext, shop: string, installHref: string): string {
  const { t } = ctx;
  return layout(
    ctx,
    t('shops.continueTitle', { shop }),
    html`<p>${t('shops.continueText')}</p>
<p><a class="button" href="${installHref}">${t('shops.connectSubmit')}</a></p>
<p><a href="/account/shops">${t('shops.cancel')}</a></p>`,
  );
}
