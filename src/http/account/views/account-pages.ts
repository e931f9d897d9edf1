import type { CreatedKey } from '../../../domain/api-keys/api-key-service.ts';
import { isTestKey, SCOPES } from '../../../domain/api-keys/keys.ts';
import type { KeyEvent, ListedKey } from '../../../domain/api-keys/ports.ts';
import { html } from '../../shared/html.ts';
import { type FormState, field } from './auth-pages.ts';
import { csrfField, dataSwitch, layout, type PageContext, successNote } from './layout.ts';

const when = (ctx: PageContext, date: Date | null) =>
  date
    ? new Intl.DateTimeFormat(ctx.locale === 'fr' ? 'fr-FR' : 'en-GB', {
        dateStyle: 'medium',
        timeStyle: 'short',
        timeZone: 'Europe/Paris',
      }).format(date)
    : ctx.t('keys.never');

export function homePage(ctx: PageContext, apiBaseUrl: string, state: { welcome?: boolean } = {}): string {
  const { t } = ctx;
  const user = ctx.user!;
  return layout(
    ctx,
    t('home.title'),
    html`${state.welcome ? successNote(t('invite.welcome', { brand: user.brandName })) : ''}
${user.emailVerifiedAt ? '' : html`<p class="notice">${t('verify.notice')}</p>`}
<dl class="card">
  <dt>${t('home.brand')}</dt><dd>${user.brandName}</dd>
  <dt>${t('field.email')}</dt><dd>${user.email}</dd>
  <dt>${t('home.role')}</dt><dd>${t(`role.${user.role}`)}</dd>
</dl>
${user.role === 'finance' ? '' : html`<p><a class="button" href="/account/keys">${t('nav.keys')}</a></p>`}
<section class="card">
  <h2>${t('home.dev')}</h2>
  <p>${t('home.baseUrl')}: <code>${apiBaseUrl}</code></p>
  <p><a href="${apiBaseUrl}/docs">${t('home.docs')}</a></p>
  <p>${t('home.try')}</p>
  <pre><code>curl ${apiBaseUrl}/me -H "Authorization: Bearer dlv_…"</code></pre>
</section>`,
  );
}

/** Revoked, expired, or its actions (with the end of a rolled key's grace period). */
function keyState(ctx: PageContext, key: ListedKey) {
  const { t } = ctx;
  if (key.revokedAt) return t('keys.revoked');
  if (key.expiresAt && key.expiresAt <= new Date()) return t('keys.expired');
  return html`${key.expiresAt ? html`<span class="expires">${t('keys.expiresAt', { at: when(ctx, key.expiresAt) })}</span> ` : ''}<a href="/account/keys/${key.id}/roll">${t('keys.roll')}</a> <a href="/account/keys/${key.id}/revoke">${t('keys.revoke')}</a>`;
}

function keyRow(ctx: PageContext, key: ListedKey) {
  const { t } = ctx;
  const dead = key.revokedAt || (key.expiresAt && key.expiresAt <= new Date());
  return html`<tr${dead ? html` class="revoked"` : ''}>
  <td data-label="${t('keys.name')}" class="long">${key.name ?? '—'}</td>
  <td data-label="${t('keys.prefix')}"><code>${key.prefix}…</code>${isTestKey(key.prefix) ? html` <span class="badge">${t('keys.testBadge')}</span>` : ''}</td>
  <td data-label="${t('keys.scopes')}">${key.scopes.join(', ')}</td>
  <td data-label="${t('keys.createdBy')}" class="long">${key.createdByEmail ?? 'dlv'}</td>
  <td data-label="${t('keys.createdAt')}">${when(ctx, key.createdAt)}</td>
  <td data-label="${t('keys.lastUsed')}">${when(ctx, key.lastUsedAt)}</td>
  <td>${keyState(ctx, key)}</td>
</tr>`;
}

export function keysPage(
  ctx: PageContext,
  data: { keys: ListedKey[]; events: KeyEvent[]; steppedUp: boolean },
  state: FormState & { scopes?: string[]; test?: boolean } = {},
): string {
  const { t } = ctx;
  const verified = ctx.user!.emailVerifiedAt !== null;
  const checked = new Set(state.scopes ?? []);
  const form = verified
    ? html`<form method="post" action="/account/keys" class="card">
  <h2>${t('keys.new')}</h2>
  ${state.error ? html`<p class="error" role="alert">${state.error}</p>` : ''}
  ${csrfField(ctx)}
  ${field(t('keys.name'), 'name', { value: state.values?.name, maxlength: 100 })}
  <fieldset><legend>${t('keys.scopes')}</legend>
  ${SCOPES.map(
    (scope) =>
      html`<label class="check"><input type="checkbox" name="scopes" value="${scope}"${checked.has(scope) ? html` checked` : ''}> <code>${scope}</code> — ${t(`scope.${scope}`)}</label>`,
  )}
  </fieldset>
  <label class="check"><input type="checkbox" name="test" value="1"${(state.test ?? ctx.testMode) ? html` checked` : ''}> ${t('keys.test')}</label>
  ${data.steppedUp ? '' : field(t('keys.stepUp'), 'password', { type: 'password', autocomplete: 'current-password', maxlength: 128 })}
  <button type="submit">${t('keys.create')}</button>
</form>`
    : html`<p class="notice">${t('verify.notice')}</p>
<form method="post" action="/account/verify/resend" class="inline">${csrfField(ctx)}<button type="submit">${t('verify.resend')}</button></form>`;
  return layout(
    ctx,
    t('keys.title'),
    html`${dataSwitch(ctx, '/account/keys')}
${
  data.keys.length === 0
    ? html`<p>${t('keys.none')}</p>`
    : html`<table class="keys"><thead><tr>
  <th>${t('keys.name')}</th><th>${t('keys.prefix')}</th><th>${t('keys.scopes')}</th><th>${t('keys.createdBy')}</th>
  <th>${t('keys.createdAt')}</th><th>${t('keys.lastUsed')}</th><th></th></tr></thead>
<tbody>${data.keys.map((key) => keyRow(ctx, key))}</tbody></table>`
}
${form}
<section>
  <h2>${t('keys.audit')}</h2>
  <ul class="audit">${data.events.map(
    (e) =>
      html`<li>${when(ctx, e.at)} — <code>${e.keyPrefix}…</code> ${e.keyName ? html`(${e.keyName}) ` : ''}${t(`keys.action.${e.action}`)} — ${e.userEmail ?? 'dlv'}${e.ip ? html` — ${e.ip}` : ''}</li>`,
  )}</ul>
</section>`,
  );
}

export function keyCreatedPage(ctx: PageContext, key: CreatedKey): string {
  const { t } = ctx;
  return layout(
    ctx,
    t('keys.created'),
    html`<p class="warning" role="alert">${t('keys.createdWarning')}</p>
<p class="secret"><code>${key.key}</code></p>
<p>${key.name} — ${key.scopes.join(', ')}</p>
<p><a href="/account/keys">${t('keys.back')}</a></p>`,
  );
}

export function revokePage(
  ctx: PageContext,
  key: ListedKey | { id: string; name: string | null; prefix: string },
) {
  const { t } = ctx;
  return layout(
    ctx,
    t('keys.revokeTitle'),
    html`<p><code>${key.prefix}…</code> ${key.name ?? ''}</p>
<p class="warning">${t('keys.revokeWarning')}</p>
<form method="post" action="/account/keys/${key.id}/revoke" class="inline">${csrfField(ctx)}<button type="submit" class="danger">${t('keys.revokeConfirm')}</button></form>
<a href="/account/keys">${t('keys.cancel')}</a>`,
  );
}
