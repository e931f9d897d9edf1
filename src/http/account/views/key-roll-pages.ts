import { ROLL_GRACE, type RollGrace } from '../../../domain/accounts/key-management.ts';
import type { ApiKeyRecord } from '../../../domain/api-keys/ports.ts';
import { html } from '../../shared/html.ts';
import { field } from './auth-pages.ts';
import { csrfField, layout, type PageContext } from './layout.ts';

/** The confirmation of a key roll: how long the old key keeps working, and the password if asked. */
export function rollPage(
  ctx: PageContext,
  key: ApiKeyRecord,
  state: { steppedUp: boolean; grace?: string; error?: string },
) {
  const { t } = ctx;
  const chosen = state.grace ?? '24h';
  return layout(
    ctx,
    t('keys.rollTitle'),
    html`<p><code>${key.prefix}…</code> ${key.name ?? ''} — ${key.scopes.join(', ')}</p>
<p>${t('keys.rollIntro')}</p>
<form method="post" action="/account/keys/${key.id}/roll" class="card">
  ${state.error ? html`<p class="error" role="alert">${state.error}</p>` : ''}
  ${csrfField(ctx)}
  <fieldset><legend>${t('keys.rollGrace')}</legend>
  ${(Object.keys(ROLL_GRACE) as RollGrace[]).map(
    (grace) =>
      html`<label class="check"><input type="radio" name="grace" value="${grace}"${grace === chosen ? html` checked` : ''}> ${t(`keys.grace.${grace}`)}</label>`,
  )}
  </fieldset>
  ${state.steppedUp ? '' : field(t('keys.stepUp'), 'password', { type: 'password', autocomplete: 'current-password', maxlength: 128 })}
  <button type="submit">${t('keys.rollConfirm')}</button>
</form>
<p><a href="/account/keys">${t('keys.cancel')}</a></p>`,
  );
}
