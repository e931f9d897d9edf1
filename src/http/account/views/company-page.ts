import type { CompanyInput } from '../../../domain/brands/billing.ts';
import type { Brand } from '../../../domain/brands/brand.ts';
import { formatSiren } from '../../../domain/invoices/seller.ts';
import { html } from '../../shared/html.ts';
import { type FieldErrors, inputField, textareaField } from './form-fields.ts';
import { csrfField, layout, type PageContext, successNote } from './layout.ts';

/** The form's values from what is stored: SIREN grouped by three, blanks for what is not set. */
export function companyValues(brand: Brand): CompanyInput {
  return {
    legalName: brand.legalName ?? '',
    billingAddress: brand.billingAddress ?? '',
    siren: brand.siren ? formatSiren(brand.siren) : '',
    siret: brand.siret ?? '',
    vatNumber: brand.vatNumber ?? '',
    pickupAddress: brand.defaultPickupAddress ?? '',
  };
}

function readOnly(ctx: PageContext, values: CompanyInput) {
  const { t } = ctx;
  const shown = (value: string) => (value === '' ? html`<em>${t('company.unset')}</em>` : value);
  return html`<p class="notice">${t('company.readOnly')}</p>
<dl class="card">
  <dt>${t('company.legalName')}</dt><dd>${shown(values.legalName)}</dd>
  <dt>${t('company.billingAddress')}</dt><dd class="multiline">${shown(values.billingAddress)}</dd>
  <dt>${t('company.siren')}</dt><dd>${shown(values.siren)}</dd>
  <dt>${t('company.siret')}</dt><dd>${shown(values.siret ?? '')}</dd>
  <dt>${t('company.vat')}</dt><dd>${shown(values.vatNumber)}</dd>
  <dt>${t('company.pickup')}</dt><dd>${shown(values.pickupAddress)}</dd>
</dl>`;
}

/** The company details: a form for the owner, the same details read only for everyone else. */
export function companyPage(
  ctx: PageContext,
  state: {
    values: CompanyInput;
    editable: boolean;
    errors?: FieldErrors;
    saved?: boolean;
    /** The brand lacks what its e-invoices need (SIREN, a billing address with postcode and city). */
    missingForInvoicing?: boolean;
    /** The brand's `tracking_shows_proof_photo`. */
    trackingPhoto: boolean;
    trackingSaved?: boolean;
  },
): string {
  const { t } = ctx;
  const { values, errors = {} } = state;
  const body = state.editable
    ? html`<form method="post" action="/account/company" class="card">
  ${csrfField(ctx)}
  ${inputField(t('company.legalName'), 'legal_name', { value: values.legalName, error: errors.legal_name, maxlength: 200 })}
  ${textareaField(t('company.billingAddress'), 'billing_address', { value: values.billingAddress, error: errors.billing_address, maxlength: 500 })}
  ${inputField(t('company.siren'), 'siren', { value: values.siren, error: errors.siren, maxlength: 20, inputmode: 'numeric', placeholder: '732 829 320' })}
  ${inputField(t('company.siret'), 'siret', { value: values.siret ?? '', error: errors.siret, maxlength: 20, inputmode: 'numeric', placeholder: '732 829 320 00074' })}
  ${inputField(t('company.vat'), 'vat_number', { value: values.vatNumber, error: errors.vat_number, maxlength: 20, placeholder: 'FR44732829320' })}
  ${textareaField(t('company.pickup'), 'pickup_address', { value: values.pickupAddress, error: errors.pickup_address, maxlength: 500, rows: 2 })}
  <button type="submit">${t('company.save')}</button>
</form>`
    : readOnly(ctx, values);
  return layout(
    ctx,
    t('company.title'),
    html`<p>${t('company.intro')}</p>
${state.missingForInvoicing ? html`<p class="notice" role="alert">${t('company.einvoiceNeeds')}</p>` : ''}
${state.saved ? successNote(t('company.saved')) : ''}
${body}
${trackingSettings(ctx, state.editable, state.trackingPhoto, state.trackingSaved === true)}`,
  );
}

/** Whether the recipients' tracking page shows the delivery photo: the owner's choice, off by default. */
function trackingSettings(ctx: PageContext, editable: boolean, shown: boolean, saved: boolean) {
  const { t } = ctx;
  const body = editable
    ? html`<form method="post" action="/account/company/tracking">
  ${csrfField(ctx)}
  <label class="check"><input type="checkbox" name="tracking_shows_proof_photo" value="1"${shown ? html` checked` : ''} aria-describedby="tracking-photo-hint"> ${t('company.trackingPhoto')}</label>
  <small id="tracking-photo-hint">${t('company.trackingPhotoHint')}</small>
  <button type="submit">${t('company.save')}</button>
</form>`
    : html`<p>${shown ? t('company.trackingPhotoOn') : t('company.trackingPhotoOff')}</p>`;
  return html`<section class="card" aria-labelledby="tracking-settings">
  <h2 id="tracking-settings">${t('company.trackingTitle')}</h2>
  ${saved ? successNote(t('company.trackingSaved')) : ''}
  ${body}
</section>`;
}
