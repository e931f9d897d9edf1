import { html, type SafeHtml } from '../../shared/html.ts';
import { csrfField, layout, type PageContext } from './layout.ts';

export interface FormState {
  values?: Record<string, string>;
  /** A message for the whole form (e.g. wrong password), shown above it. */
  error?: string | null;
}

const errorBox = (error: string | null | undefined) =>
  error ? html`<p class="error" role="alert">${error}</p>` : '';

export function field(
  label: string,
  name: string,
  options: {
    type?: string;
    value?: string;
    autocomplete?: string;
    maxlength?: number;
    required?: boolean;
  } = {},
): SafeHtml {
  return html`<label for="${name}">${label}</label>
<input id="${name}" name="${name}" type="${options.type ?? 'text'}" value="${options.value ?? ''}"${
    options.autocomplete ? html` autocomplete="${options.autocomplete}"` : ''
  } maxlength="${options.maxlength ?? 254}"${options.required === false ? '' : html` required`}>`;
}

export function signInPage(ctx: PageContext, state: FormState = {}): string {
  const { t } = ctx;
  return layout(
    ctx,
    t('signIn.title'),
    html`${errorBox(state.error)}
<form method="post" action="/account/sign-in" class="card">
  ${csrfField(ctx)}
  ${field(t('field.email'), 'email', { type: 'email', value: state.values?.email, autocomplete: 'username' })}
  ${field(t('field.password'), 'password', { type: 'password', autocomplete: 'current-password', maxlength: 128 })}
  <button type="submit">${t('signIn.submit')}</button>
</form>
<p><a href="/account/forgot">${t('signIn.forgot')}</a></p>
<p><a href="/account/sign-up">${t('signIn.noAccount')}</a></p>`,
  );
}

export function signUpPage(ctx: PageContext, state: FormState = {}): string {
  const { t } = ctx;
  return layout(
    ctx,
    t('signUp.title'),
    html`${errorBox(state.error)}
<form method="post" action="/account/sign-up" class="card">
  ${csrfField(ctx)}
  ${field(t('signUp.company'), 'company', { value: state.values?.company, autocomplete: 'organization', maxlength: 200 })}
  ${field(t('field.email'), 'email', { type: 'email', value: state.values?.email, autocomplete: 'email' })}
  ${field(t('field.newPassword'), 'password', { type: 'password', autocomplete: 'new-password', maxlength: 128 })}
  <button type="submit">${t('signUp.submit')}</button>
</form>
<p><a href="/account/sign-in">${t('signIn.title')}</a></p>`,
  );
}

export function forgotPage(ctx: PageContext, state: FormState = {}): string {
  const { t } = ctx;
  return layout(
    ctx,
    t('forgot.title'),
    html`${errorBox(state.error)}
<form method="post" action="/account/forgot" class="card">
  ${csrfField(ctx)}
  ${field(t('field.email'), 'email', { type: 'email', value: state.values?.email, autocomplete: 'username' })}
  <button type="submit">${t('forgot.submit')}</button>
</form>`,
  );
}

/** The "choose a password" form of a reset or invitation link. */
export function resetPage(
  ctx: PageContext,
  link: { action: string; title: string; token: string },
  state: FormState = {},
): string {
  const { t } = ctx;
  return layout(
    ctx,
    link.title,
    html`${errorBox(state.error)}
<form method="post" action="${link.action}" class="card">
  ${csrfField(ctx)}
  <input type="hidden" name="token" value="${link.token}">
  ${field(t('field.newPassword'), 'password', { type: 'password', autocomplete: 'new-password', maxlength: 128 })}
  <button type="submit">${t('reset.submit')}</button>
</form>`,
  );
}

/**
 * The page an e-mail verification link opens: the link is used up only by this form's POST, so a
 * mail scanner or link preview that fetches the URL cannot confirm (or spend) it.
 */
export function verifyPage(ctx: PageContext, token: string): string {
  const { t } = ctx;
  return layout(
    ctx,
    t('verify.title'),
    html`<form method="post" action="/account/verify" class="card">
  ${csrfField(ctx)}
  <input type="hidden" name="token" value="${token}">
  <p>${t('verify.confirm')}</p>
  <button type="submit">${t('verify.submit')}</button>
</form>`,
  );
}
