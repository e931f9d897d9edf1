import type { RecipientNotification } from '../../../domain/recipients/notification-ports.ts';
import { recipientWording } from '../../../i18n/recipients.ts';
import { html } from '../../shared/html.ts';
import { parisDateTime } from './format.ts';
import type { PageContext } from './layout.ts';

/**
 * "Messages to the recipient" on an order's page: each notification's step, channel, status and
 * time, and why one was not sent. Never the address: the brand has it on the order, and a list of
 * who got what is not its business here.
 */
export function recipientMessagesSection(ctx: PageContext, messages: readonly RecipientNotification[]) {
  const t = recipientWording(ctx.locale);
  const reason = (m: RecipientNotification) =>
    m.status === 'skipped' &&
    m.detail &&
    ['off', 'no_address', 'opted_out', 'shop_notifies'].includes(m.detail)
      ? html` <span class="muted">(${t(`skip.${m.detail as 'off'}`)})</span>`
      : '';
  return html`<section class="card recipient-messages">
  <h2>${t('account.title')}</h2>
  ${
    messages.length === 0
      ? html`<p class="muted">${t('account.none')}</p>`
      : html`<table class="list"><thead><tr><th>${t('account.when')}</th><th>${t('account.step')}</th><th>${t('account.channel')}</th><th>${t('account.status')}</th></tr></thead>
  <tbody>${messages.map(
    (m) =>
      html`<tr><td><time datetime="${m.updatedAt.toISOString()}">${parisDateTime(ctx, m.updatedAt)}</time></td><td>${t(`step.${m.step}`)}</td><td>${t(`channel.${m.channel}`)}</td><td>${t(`status.${m.status}`)}${reason(m)}</td></tr>`,
  )}</tbody></table>`
  }
</section>`;
}
