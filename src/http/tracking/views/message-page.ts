import { trackingWording } from '../../../i18n/tracking.ts';
import { type SafeHtml as Html, html } from '../../shared/html.ts';
import { type LayoutContext, layout } from './layout.ts';

/** A page that only says something: an unknown link (404), too many requests (429), a failure. */
export function messagePage(
  ctx: LayoutContext,
  kind: 'notFound' | 'tooMany' | 'error',
  retryAfterSeconds = 1,
): Html {
  const t = trackingWording(ctx.lang);
  const [title, body, icon] =
    kind === 'notFound'
      ? [t('notFoundTitle'), t('notFoundBody'), '?']
      : kind === 'tooMany'
        ? [
            t('tooManyTitle'),
            t('tooManyBody', { seconds: retryAfterSeconds, plural: retryAfterSeconds > 1 ? 's' : '' }),
            '…',
          ]
        : [t('errorTitle'), t('errorBody'), '!'];
  return layout(ctx, {
    title,
    brand: null,
    body: html`<section class="card message">
  <div class="message-icon" aria-hidden="true">${icon}</div>
  <h1>${title}</h1>
  <p>${body}</p>
</section>`,
  });
}
