import type { RecipientNotification } from '../../../domain/recipients/notification-ports.ts';
import { recipientWording } from '../../../i18n/recipients.ts';
import { html } from '../../shared/html.ts';
import { parisDateTime } from './format.ts';
import type { PageContext } from './layout.ts';

const SKIP_REASONS = new Set(['off', 'no_address', 'opted_out', 'shop_notifies']);

/**
 * "Messages to the recipient" on an order's page: each notification's step, channel, status and
 * time; why one was not sent, failed (the SMTP server's or SMS provider's reply, e.g. `550 5.1.1
 * user unknown`) or waits to be tried again. Never the address: the brand has it on the order, a
 * list of who got what is not its business here, and the mailer leaves it out of the replies. On test
 * data a note says where they went: the development outbox (a test order never reaches a recipient).
 */
export function recipientMessagesSection(ctx: PageContext, messages: readonly RecipientNotification[]) {
  const t = recipientWording(ctx.locale);
  const why = (m: RecipientNotification): string | null => {
    if (!m.detail) return null;
    if (m.status === 'skipped') return SKIP_REASONS.has(m.detail) ? t(`skip.${m.detail as 'off'}`) : null;
    if (m.status === 'failed') return m.detail;
    if (m.status === 'sending') return t('detail.retrying', { reason: m.detail });
    return null;
  };
  const reason = (m: RecipientNotification) => {
    const text = why(m);
    return text ? html` <span class="muted">(${text})</span>` : '';
  };
  return html`<section class="card recipient-messages">
  <h2>${t('account.title')}</h2>
  ${ctx.testMode ? html`<p class="muted test-outbox">${t('account.testOutbox')}</p>` : ''}
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
