import type { Platform } from '../../../connectors/connection.ts';
import { CONNECTORS } from '../../../connectors/registry.ts';
import { NOTIFICATION_STEPS, type RecipientSettings } from '../../../domain/recipients/ports.ts';
import { type RecipientSettingsInput, SENDER_NAME_MAX } from '../../../domain/recipients/settings-rules.ts';
import { html, type SafeHtml } from '../../shared/html.ts';
import { type FieldErrors, inputField, selectField } from './form-fields.ts';
import { csrfField, layout, type PageContext, successNote } from './layout.ts';

/** The service's own colour: what the picker shows while the brand has none. */
const DEFAULT_PICKER_COLOUR = '#2f5bea';

/** The form as typed (or as stored, on a first display): the settings' input as the service takes it. */
export type NotificationsForm = RecipientSettingsInput;

export const formOf = (s: RecipientSettings): NotificationsForm => ({
  emailSteps: s.emailSteps,
  smsSteps: s.smsSteps,
  senderName: s.senderName ?? '',
  colour: s.colour ?? '',
  locale: s.locale,
  shopNotifies: s.shopNotifies,
});

export interface NotificationsPageState {
  brandId: string;
  brandName: string;
  /** What is stored: the colour's reference, the logo. */
  stored: RecipientSettings;
  form: NotificationsForm;
  errors?: FieldErrors;
  logoError?: string;
  /** `saved`, `logo`, `logo-removed` after a redirect. */
  done?: string;
  /** Linked shops whose own "notify the customer" is on. */
  notifyingShops: readonly { platform: Platform; shop: string }[];
}

const platformLabel = (platform: Platform) =>
  CONNECTORS.find((c) => c.platform === platform)?.label ?? platform;

const checked = (on: boolean) => (on ? html` checked` : '');

function stepsTable(ctx: PageContext, form: NotificationsForm, errors: FieldErrors): SafeHtml {
  const { t } = ctx;
  const error = errors.email_steps ?? errors.sms_steps;
  return html`<table class="list steps"${error ? html` aria-describedby="steps-error"` : ''}>
  <caption>${t('notifications.steps')}</caption>
  <thead><tr><th scope="col">${t('notifications.step')}</th><th scope="col" class="channel">${t('notifications.email')}</th><th scope="col" class="channel">${t('notifications.sms')}</th></tr></thead>
  <tbody>
  ${NOTIFICATION_STEPS.map(
    (step) => html`<tr>
    <th scope="row" id="step-${step}">${t(`notifications.step.${step}`)}</th>
    <td class="channel"><input type="checkbox" name="email_steps" value="${step}" aria-labelledby="step-${step} col-email"${checked(form.emailSteps.includes(step))} title="${t('notifications.email')}"></td>
    <td class="channel"><input type="checkbox" name="sms_steps" value="${step}" aria-labelledby="step-${step} col-sms"${checked(form.smsSteps.includes(step))} title="${t('notifications.sms')}"></td>
  </tr>`,
  )}
  </tbody>
</table>
<span hidden id="col-email">${t('notifications.email')}</span><span hidden id="col-sms">${t('notifications.sms')}</span>
${error ? html`<p class="field-error" id="steps-error">${error}</p>` : ''}
<p class="hint">${t('notifications.stepsHint')}</p>`;
}

function settingsForm(ctx: PageContext, state: NotificationsPageState): SafeHtml {
  const { t } = ctx;
  const { form, errors = {} } = state;
  const picker = /^#[0-9a-f]{6}$/.test(form.colour)
    ? form.colour
    : (state.stored.colour ?? DEFAULT_PICKER_COLOUR);
  return html`<form method="post" action="/account/notifications" class="card settings">
  ${csrfField(ctx)}
  ${stepsTable(ctx, form, errors)}
  <label class="check"><input type="checkbox" name="shop_notifies" value="1" aria-describedby="shop-notifies-hint"${checked(form.shopNotifies)}> ${t('notifications.shopNotifies')}</label>
  <p class="hint" id="shop-notifies-hint">${t('notifications.shopNotifiesHint')}</p>
  <h2>${t('notifications.look')}</h2>
  ${inputField(t('notifications.senderName'), 'sender_name', { value: form.senderName, error: errors.sender_name, maxlength: SENDER_NAME_MAX, placeholder: state.brandName })}
  <p class="hint">${t('notifications.senderNameHint', { brand: state.brandName })}</p>
  <label for="colour">${t('notifications.colour')}</label>
  <div class="colour-row">
    <input type="color" name="colour_picker" value="${picker}" aria-label="${t('notifications.colourPicker')}">
    <input id="colour" name="colour" type="text" value="${form.colour}" maxlength="20" placeholder="#1a73e8" autocomplete="off" spellcheck="false"${
      errors.colour
        ? html` aria-invalid="true" aria-describedby="colour-error colour-hint"`
        : html` aria-describedby="colour-hint"`
    }>
  </div>
  <input type="hidden" name="colour_shown" value="${form.colour}">
  <input type="hidden" name="picker_shown" value="${picker}">
  ${errors.colour ? html`<p class="field-error" id="colour-error">${errors.colour}</p>` : ''}
  <p class="hint" id="colour-hint">${t('notifications.colourHint')}</p>
  ${selectField(
    t('notifications.locale'),
    'locale',
    [
      { value: 'fr', label: t('notifications.locale.fr') },
      { value: 'en', label: t('notifications.locale.en') },
    ],
    { value: form.locale, error: errors.locale },
  )}
  <button type="submit">${t('notifications.save')}</button>
</form>`;
}

function logoSection(ctx: PageContext, state: NotificationsPageState): SafeHtml {
  const { t } = ctx;
  const sha = state.stored.logoSha256;
  return html`<section class="card logo" aria-labelledby="logo-title">
  <h2 id="logo-title">${t('notifications.logo')}</h2>
  ${
    sha
      ? html`<figure class="logo-preview"><img src="/track/assets/logo/${state.brandId}/${sha}.png" alt="${t('notifications.logoCurrent')}"><figcaption>${t('notifications.logoCurrent')}</figcaption></figure>
  <form method="post" action="/account/notifications/logo/remove" class="inline">${csrfField(ctx)}<button type="submit" class="danger">${t('notifications.logoRemove')}</button></form>`
      : html`<p class="muted">${t('notifications.logoNone')}</p>`
  }
  <form method="post" action="/account/notifications/logo" enctype="multipart/form-data">
    ${csrfField(ctx)}
    <label for="logo">${t('notifications.logoFile')}</label>
    <input id="logo" name="logo" type="file" accept="image/png,image/jpeg,image/webp" required aria-describedby="logo-hint${state.logoError ? ' logo-error' : ''}"${state.logoError ? html` aria-invalid="true"` : ''}>
    ${state.logoError ? html`<p class="field-error" id="logo-error">${state.logoError}</p>` : ''}
    <p class="hint" id="logo-hint">${t('notifications.logoHint')}</p>
    <button type="submit">${t('notifications.logoUpload')}</button>
  </form>
</section>`;
}

const DONE: Record<string, 'notifications.saved' | 'notifications.logoSaved' | 'notifications.logoRemoved'> =
  {
    saved: 'notifications.saved',
    logo: 'notifications.logoSaved',
    'logo-removed': 'notifications.logoRemoved',
  };

/** `/account/notifications`: the steps and channels, the look of the messages and tracking page, the logo. */
export function notificationsPage(ctx: PageContext, state: NotificationsPageState): string {
  const { t } = ctx;
  // Only the notices this page knows (`?done=constructor` is not one).
  const done = state.done && Object.hasOwn(DONE, state.done) ? DONE[state.done] : undefined;
  const failed = (state.errors && Object.keys(state.errors).length > 0) || state.logoError;
  return layout(
    ctx,
    t('notifications.title'),
    html`<p>${t('notifications.intro')}</p>
${done ? successNote(t(done)) : ''}
${failed ? html`<p class="error" role="alert">${t('notifications.fixErrors')}</p>` : ''}
${
  state.notifyingShops.length > 0
    ? html`<div class="warning linked-shops"><p>${t('notifications.linkedShops')}</p><ul>${state.notifyingShops.map(
        (s) => html`<li>${s.shop} (${platformLabel(s.platform)})</li>`,
      )}</ul></div>`
    : ''
}
<div class="notifications">
${settingsForm(ctx, state)}
${logoSection(ctx, state)}
</div>`,
  );
}
