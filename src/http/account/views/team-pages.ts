import { ROLES, type TeamInvitation, type User } from '../../../domain/accounts/user.ts';
import { html } from '../../shared/html.ts';
import { field } from './auth-pages.ts';
import { csrfField, layout, type PageContext, successNote } from './layout.ts';

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
  <td data-label="${t('team.email')}" class="long">${member.email} ${self ? t('team.you') : ''}</td>
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

/**
 * A pending invitation: the same row whether its address is new or another company's person's
 * (nothing here may tell them apart), with its cancel button. Expired ones are not listed.
 */
function invitationRow(ctx: PageContext, invitation: TeamInvitation) {
  const { t } = ctx;
  return html`<tr>
  <td data-label="${t('team.email')}" class="long">${invitation.email}</td>
  <td data-label="${t('team.role')}">${t(`role.${invitation.role}`)}</td>
  <td data-label="${t('team.invitedOn')}">${day(ctx, invitation.createdAt)}</td>
  <td data-label="${t('team.accepted')}">${t('team.pendingUntil', { date: day(ctx, invitation.expiresAt) })}</td>
  <td><form method="post" action="/account/team/invitations/${invitation.id}/cancel" class="inline">${csrfField(ctx)}<button type="submit">${t('team.cancelInvitation')}</button></form></td>
</tr>`;
}

function invitationsTable(ctx: PageContext, invitations: TeamInvitation[]) {
  const { t } = ctx;
  if (invitations.length === 0) return '';
  return html`<h2>${t('team.pendingTitle')}</h2>
<table class="keys"><thead><tr>
  <th>${t('team.email')}</th><th>${t('team.role')}</th><th>${t('team.invitedOn')}</th><th>${t('team.accepted')}</th><th></th>
</tr></thead>
<tbody>${invitations.map((invitation) => invitationRow(ctx, invitation))}</tbody></table>
<p class="muted hint">${t('team.resendHint')}</p>`;
}

/** The brand's people and pending invitations, with the invitation form (owners only). */
export function teamPage(
  ctx: PageContext,
  team: { members: User[]; invitations: TeamInvitation[] },
  state: { notice?: string; error?: string; email?: string; role?: string } = {},
): string {
  const { members } = team;
  const { t } = ctx;
  return layout(
    ctx,
    t('team.title'),
    html`${state.notice ? successNote(state.notice) : ''}
<table class="keys"><thead><tr>
  <th>${t('team.email')}</th><th>${t('team.role')}</th><th>${t('team.verified')}</th><th>${t('team.created')}</th><th></th>
</tr></thead>
<tbody>${members.map((member) => memberRow(ctx, member))}</tbody></table>
${invitationsTable(ctx, team.invitations)}
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
