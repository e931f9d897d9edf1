import type { Channel } from '../../domain/recipients/ports.ts';
import { recipientWording } from '../../i18n/recipients.ts';
import { type SafeHtml as Html, html } from '../shared/html.ts';
import { type LayoutContext, layout } from '../tracking/views/layout.ts';

export type UnsubscribeView =
  | { kind: 'ask'; channel: Channel; action: string; problem?: boolean }
  | { kind: 'done'; channel: Channel }
  | { kind: 'invalid' };

/**
 * The unsubscribe page, in the tracking pages' look: the question and one button (a GET never
 * unsubscribes: mail scanners follow links), then the answer. It names no address: the link holds
 * only its digest.
 */
export function unsubscribePage(ctx: LayoutContext, view: UnsubscribeView): Html {
  const t = recipientWording(ctx.lang);
  if (view.kind === 'invalid') {
    return layout(ctx, {
      title: t('unsubscribe.invalidTitle'),
      brand: null,
      body: html`<section class="card message">
  <div class="message-icon" aria-hidden="true">?</div>
  <h1>${t('unsubscribe.invalidTitle')}</h1>
  <p>${t('unsubscribe.invalid')}</p>
</section>`,
    });
  }
  if (view.kind === 'done') {
    return layout(ctx, {
      title: t('unsubscribe.doneTitle'),
      brand: null,
      body: html`<section class="card message" role="status">
  <div class="message-icon" aria-hidden="true">✓</div>
  <h1>${t('unsubscribe.doneTitle')}</h1>
  <p>${t(`unsubscribe.done.${view.channel}`)}</p>
</section>`,
    });
  }
  return layout(ctx, {
    title: t('unsubscribe.title'),
    brand: null,
    body: html`<section class="card message">
  <h1>${t('unsubscribe.title')}</h1>
  ${view.problem ? html`<p role="alert">${t('unsubscribe.badForm')}</p>` : ''}
  <p>${t(`unsubscribe.ask.${view.channel}`)}</p>
  <form class="unsubscribe-form" method="post" action="${view.action}">
    <input type="hidden" name="confirm" value="yes">
    <button type="submit">${t('unsubscribe.button')}</button>
  </form>
</section>`,
  });
}
