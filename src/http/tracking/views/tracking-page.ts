import type { OrderEvent } from '../../../domain/orders/order.ts';
import type { OrderStatus } from '../../../domain/orders/state-machine.ts';
import { INTL_LOCALE, type Locale } from '../../../i18n/locales.ts';
import { trackingWording } from '../../../i18n/tracking.ts';
import { type SafeHtml as Html, html } from '../../shared/html.ts';
import { type Step, timeline } from '../timeline.ts';
import { type BrandLook, type LayoutContext, layout } from './layout.ts';

/**
 * Everything the page may show, and nothing more: the recipient's name, address, phone and
 * e-mail, the brand's customer e-mail and the operator's notes are not in it, so no template
 * change can leak them.
 */
export interface TrackingView {
  brandName: string;
  trackingRef: string;
  status: OrderStatus;
  /** False for a test order (test mode): the page says it is no real delivery. */
  livemode: boolean;
  promisedDate: string | null;
  postcode: string | null;
  city: string | null;
  events: ReadonlyArray<Pick<OrderEvent, 'status' | 'at'>>;
  /** The self-service's page while the delivery can still be changed (decision 0007), else null. */
  changeUrl?: string | null;
  /** The delivery as the courier recorded it; `photoPath` only when the brand shows the photo. */
  proof: { deliveredAt: Date | null; photoPath: string | null } | null;
  /** The brand's logo and colour (its recipient settings); absent: the service's look. */
  look?: BrandLook;
  /**
   * While out for delivery on a round that has left: the two-hour window and how many stops come
   * before this one (docs/arrival-times.md). Never a place: no coordinate of anyone is on the page.
   */
  arrival?: { windowStart: Date; windowEnd: Date; stopsBefore: number } | null;
}

const PARIS = 'Europe/Paris';

export const formatDay = (lang: Locale, isoDate: string) =>
  // A calendar date, not an instant: formatted at noon UTC so no time zone moves it to another day.
  new Intl.DateTimeFormat(INTL_LOCALE[lang], {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    timeZone: 'UTC',
  }).format(new Date(`${isoDate}T12:00:00Z`));

const formatInstant = (lang: Locale, at: Date) =>
  new Intl.DateTimeFormat(INTL_LOCALE[lang], {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    timeZone: PARIS,
  }).format(at);

/** A time of day as each language writes it, and as the recipient's messages do: 10h15, 10:15. */
const formatTime = (lang: Locale, at: Date) => {
  const time = new Intl.DateTimeFormat(INTL_LOCALE[lang], {
    hour: '2-digit',
    minute: '2-digit',
    timeZone: PARIS,
  }).format(at);
  return lang === 'fr' ? time.replace(':', 'h') : time;
};

function arrivalFact(lang: Locale, arrival: NonNullable<TrackingView['arrival']>): Html {
  const t = trackingWording(lang);
  const n = arrival.stopsBefore;
  const stops =
    n === 0
      ? t('stopsBefore.none')
      : n === 1
        ? t('stopsBefore.one')
        : t('stopsBefore.many', { count: String(n) });
  const between = t('arrivalBetween', {
    from: formatTime(lang, arrival.windowStart),
    to: formatTime(lang, arrival.windowEnd),
  });
  return html`<div class="fact arrival"><dt>${t('arrivalWindow')}</dt><dd><time datetime="${arrival.windowStart.toISOString()}">${between}</time><span class="stops-before">${stops}</span></dd></div>`;
}

const TONE: Record<OrderStatus, string> = {
  awaiting_address: 'neutral',
  pending: 'neutral',
  picked_up: 'active',
  in_transit: 'active',
  out_for_delivery: 'active',
  failed_attempt: 'warning',
  delivered: 'success',
  returned: 'danger',
  cancelled: 'danger',
};

/** How far along the way to delivery (0–4), for the progress bar. */
const PROGRESS: Record<OrderStatus, number> = {
  awaiting_address: 0,
  pending: 0,
  picked_up: 1,
  in_transit: 2,
  out_for_delivery: 3,
  failed_attempt: 3,
  delivered: 4,
  returned: 4,
  cancelled: 0,
};

function stepItem(lang: Locale, step: Step): Html {
  const t = trackingWording(lang);
  return html`<li class="step ${step.state} m-${step.milestone}"${step.state === 'current' ? html` aria-current="step"` : ''}>
      <span class="dot" aria-hidden="true"></span>
      <div class="step-text">
        <p class="step-label">${t(`steps.${step.milestone}`)}</p>
        ${step.at ? html`<p class="step-time"><time datetime="${step.at.toISOString()}">${formatInstant(lang, step.at)}</time></p>` : ''}
      </div>
    </li>`;
}

export function trackingPage(ctx: LayoutContext, view: TrackingView): Html {
  const t = trackingWording(ctx.lang);
  const steps = timeline(view.events.map((e) => ({ ...e, note: null })));
  const deliveredAt =
    view.status === 'delivered'
      ? (view.proof?.deliveredAt ?? steps.find((s) => s.milestone === 'delivered')?.at)
      : null;
  const photo = view.status === 'delivered' ? (view.proof?.photoPath ?? null) : null;
  const destination = [view.postcode, view.city].filter(Boolean).join(' ');
  const progress = PROGRESS[view.status];
  const dateFact = deliveredAt
    ? html`<div class="fact"><dt>${t('deliveredOn')}</dt><dd>${formatInstant(ctx.lang, deliveredAt)}</dd></div>`
    : view.promisedDate && !['returned', 'cancelled'].includes(view.status)
      ? html`<div class="fact"><dt>${t('promised')}</dt><dd>${formatDay(ctx.lang, view.promisedDate)}</dd></div>`
      : '';
  return layout(ctx, {
    title: t('pageTitle', { brand: view.brandName }),
    brand: view.brandName,
    look: view.look ?? null,
    body: html`<div class="grid">
<section class="card summary tone-${TONE[view.status]}">
  ${view.livemode ? '' : html`<p class="notice notice-error" role="note">${t('testOrder')}</p>`}
  <p class="ref">${t('trackingNumber')} <span class="ref-value">${view.trackingRef}</span></p>
  <h1>${t(`headline.${view.status}`)}</h1>
  <p class="lead">${t(`detail.${view.status}`)}</p>
  ${
    view.status === 'cancelled'
      ? ''
      : html`<div class="progress p-${progress}" aria-hidden="true"><span></span><span></span><span></span><span></span></div>`
  }
  <dl class="facts">
    ${view.status === 'out_for_delivery' && view.arrival ? arrivalFact(ctx.lang, view.arrival) : ''}
    ${dateFact}
    <div class="fact"><dt>${t('destination')}</dt><dd>${destination || t('addressPending')}</dd></div>
  </dl>
  ${
    view.changeUrl
      ? html`<div class="self-service-door">
    <a class="button" href="${view.changeUrl}?lang=${ctx.lang}">${t('self.link')}</a>
    <p class="hint">${t('self.linkHint')}</p>
  </div>`
      : ''
  }
  ${photo ? html`<figure class="proof-photo"><img src="${photo}" alt="${t('proofPhotoAlt')}" width="480"><figcaption>${t('proofPhoto')}</figcaption></figure>` : ''}
</section>
<section class="card history" aria-labelledby="history-title">
  <h2 id="history-title">${t('history')}</h2>
  <ol class="timeline">
    ${steps.map((step) => stepItem(ctx.lang, step))}
  </ol>
</section>
</div>`,
  });
}
