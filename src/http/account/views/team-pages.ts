import { ROLES, type User } from '../../../domain/accounts/user.ts';
import { html } from '../../shared/html.ts';
import { field } from './auth-pages.ts';
import { csrfField, layout, type PageContext } from './layout.ts';

const day = (ctx: PageContext, date: Date) =>
  new Intl.DateTimeFormat(ctx.locale === 'fr' ? 'fr-FR' : 'en-GB', {
    dateStyle: 'medium',
    timeZone: 'Europe/Paris',
  }).format(date);

const roleOptions = (ctx: PageContext, selected: string) =>
  ROLES.map(
    (role) =>
      html`<option value="${role}"${role === selected ? html` selected` : ''}>${ctx.t(`role.${role}`)}</option>`,
  );

function memberRow(ctx: PageContext, member: User) {
  const { t } = ctx;
  const self = member.id === ctx.user!.id;
  return html`<tr>
  <td data-label="${t('team.email')}">${member.email} ${self ? t('team.you') : ''}</td>
  <td data-label="${t('team.role')}">${
    self
      ? t(`role.${member.role}`)
      : html`<form method="post" action="/account/team/${member.id}/role" class="inline">${csrfField(ctx)}
    <select name="role" aria-label="${t('team.role')}">${roleOptions(ctx, member.role)}</select>
    <button type="submit">${t('team.change')}</button></form>`
  }</td>
  <td data-label="${t('team.verified')}">${member.emailVerifiedAt ? t('team.yes') : t('team.no')}</td>
  <td data-label="${t('team.created')}">${day(ctx, member.createdAt)}</td>
  <td>${self ? '' : html`<a href="/account/team/${member.id}/remove">${t('team.remove')}</a>`}</td>
</tr>`;
}

/** The brand's people, with the invitation form (owners only). */
export function teamPage(
  ctx: PageContext,
  members: User[],
  state: { notice?: string; error?: string; email?: string; role?: string } = {},
): string {
  const { t } = ctx;
  return layout(
    ctx,
    t('team.title'),
    html`${state.notice ? html`<p class="notice" role="status">${state.notice}</p>` : ''}
<table class="keys"><thead><tr>
  <th>${t('team.email')}</th><th>${t('team.role')}</th><th>${t('team.verified')}</th><th>${t('team.created')}</th><th></th>
</tr></thead>
<tbody>${members.map((member) => memberRow(ctx, member))}</tbody></table>
<form method="post" action="/account/team/invite" class="card">
  <h2>${t('team.invite')}</h2>
  ${state.error ? html`<p class="error" role="alert">${state.error}</p>` : ''}
  ${csrfField(ctx)}
  ${field(t('field.email'), 'email', { type: 'email', value: state.email, autocomplete: 'off' })}
  <label for="role">${t('team.role')}</label>
  <select id="role" name="role">${roleOptions(ctx, state.role ?? 'developer')}</select>
  <button type="submit">${t('team.inviteSubmit')}</button>
</form>`,
  );
}

export function removeMemberPage(ctx: PageContext, member: User): string {
  const { t } = ctx;
  return layout(
    ctx,
    t('team.removeTitle'),
    html`<p>${member.email} — ${t(`role.${member.role}`)}</p>
<p class="warning">${t('team.removeWarning', { email: member.email })}</p>
<form method="post" action="/account/team/${member.id}/remove" class="inline">${csrfField(ctx)}<button type="submit" class="danger">${t('team.removeConfirm')}</button></form>
<a href="/account/team">${t('team.cancel')}</a>`,
  );
}
