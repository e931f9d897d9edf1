import { SAFE_PLACE_KINDS } from '../../../domain/recipients/delivery-choices.ts';
import type { Channel, RecipientChoices } from '../../../domain/recipients/ports.ts';
import { type TrackingKey, trackingWording } from '../../../i18n/tracking.ts';
import { type SafeHtml as Html, html } from '../../shared/html.ts';
import { type BrandLook, type LayoutContext, layout } from './layout.ts';
import { formatDay } from './tracking-page.ts';

/**
 * The self-service pages (decision 0007). Before a valid code they show nothing of the recipient:
 * no name, no address, no digit of a phone number, no part of an e-mail (the channels are named
 * only as "the phone number / the address given with the order").
 */
interface SelfServiceBase {
  brandName: string;
  /** The brand's logo and colour, as on the tracking page. */
  look?: BrandLook | null;
  trackingRef: string;
  /** `/track/{token}`: the forms post under it. */
  base: string;
  csrf: string;
}

/** A notice above a form: what went wrong (`error`) or what was done (`done`). */
export type Notice = { tone: 'error' | 'done'; text: string } | null;

export { formatDay as formatSelfServiceDay };

const withLang = (ctx: LayoutContext, path: string) => `${path}?lang=${ctx.lang}`;

function noticeOf(notice: Notice): Html | '' {
  if (!notice) return '';
  return html`<p class="notice notice-${notice.tone}" role="${notice.tone === 'error' ? 'alert' : 'status'}">${notice.text}</p>`;
}

function page(ctx: LayoutContext, view: SelfServiceBase, body: Html): Html {
  const t = trackingWording(ctx.lang);
  return layout(ctx, {
    title: t('self.title'),
    brand: view.brandName,
    look: view.look ?? null,
    body: html`<section class="card self-service">
  <p class="ref">${t('trackingNumber')} <span class="ref-value">${view.trackingRef}</span></p>
  <h1>${t('self.title')}</h1>
  ${body}
  <p class="back"><a href="${withLang(ctx, view.base)}">${t('self.back')}</a></p>
</section>`,
  });
}

const csrfField = (csrf: string) => html`<input type="hidden" name="_csrf" value="${csrf}">`;

/** Step 1: where to send the code. */
export function codeRequestPage(
  ctx: LayoutContext,
  view: SelfServiceBase & { channels: readonly Channel[]; notice: Notice },
): Html {
  const t = trackingWording(ctx.lang);
  if (view.channels.length === 0)
    return page(ctx, view, html`${noticeOf(view.notice)}<p class="lead">${t('self.noChannel')}</p>`);
  return page(
    ctx,
    view,
    html`${noticeOf(view.notice)}
  <p class="lead">${t('self.intro')}</p>
  <form class="self-form" method="post" action="${withLang(ctx, `${view.base}/code`)}">
    ${csrfField(view.csrf)}
    <fieldset>
      <legend>${t('self.channelLegend')}</legend>
      ${view.channels.map(
        (channel, i) =>
          html`<label class="choice"><input type="radio" name="channel" value="${channel}"${i === 0 ? html` checked` : ''}> <span>${t(`self.channel.${channel}`)}</span></label>`,
      )}
    </fieldset>
    <button type="submit" class="button">${t('self.send')}</button>
  </form>`,
  );
}

/** Step 2: the code sent, to be typed. */
export function codeEntryPage(
  ctx: LayoutContext,
  view: SelfServiceBase & { sentBy: Channel | null; channels: readonly Channel[]; notice: Notice },
): Html {
  const t = trackingWording(ctx.lang);
  return page(
    ctx,
    view,
    html`${noticeOf(view.notice)}
  ${view.sentBy ? html`<p class="lead">${t(`self.codeSent.${view.sentBy}`)}</p>` : ''}
  <form class="self-form" method="post" action="${withLang(ctx, `${view.base}/verify`)}">
    ${csrfField(view.csrf)}
    ${view.sentBy ? html`<input type="hidden" name="sent" value="${view.sentBy}">` : ''}
    <label for="code">${t('self.codeLabel')}</label>
    <input id="code" name="code" class="code-input" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]{6,7}" maxlength="7" required>
    <button type="submit" class="button">${t('self.verify')}</button>
  </form>
  <form class="self-form secondary-form" method="post" action="${withLang(ctx, `${view.base}/code`)}">
    ${csrfField(view.csrf)}
    <input type="hidden" name="channel" value="${view.sentBy ?? view.channels[0] ?? ''}">
    <button type="submit" class="button secondary">${t('self.resend')}</button>
  </form>`,
  );
}

/** The form's values: what is stored, or what was just typed (redrawn with its problems). */
export interface ChoiceValues {
  instructions: string;
  safePlace: string;
  safePlaceDetail: string;
  date: string;
}

export const valuesOf = (choices: RecipientChoices): ChoiceValues => ({
  instructions: choices.instructions ?? '',
  safePlace: choices.safePlace?.kind ?? 'none',
  safePlaceDetail: choices.safePlace?.detail ?? '',
  date: '',
});

/** Step 3, once the code was right: the choices. */
export function choicesPage(
  ctx: LayoutContext,
  view: SelfServiceBase & {
    promisedDate: string | null;
    days: readonly string[];
    values: ChoiceValues;
    /** Field → its problem's words key. */
    problems: ReadonlyMap<string, TrackingKey>;
    notice: Notice;
  },
): Html {
  const t = trackingWording(ctx.lang);
  const problem = (field: string) => {
    const key = view.problems.get(field);
    return key ? html`<p class="field-error" id="${field}-error">${t(key)}</p>` : '';
  };
  const invalid = (field: string) =>
    view.problems.has(field) ? html` aria-invalid="true" aria-describedby="${field}-error"` : '';
  const keep = view.promisedDate
    ? t('self.keepDay', { day: formatDay(ctx.lang, view.promisedDate) })
    : t('self.keepNoDay');
  return page(
    ctx,
    view,
    html`${noticeOf(view.notice)}
  <form class="self-form" method="post" action="${withLang(ctx, `${view.base}/change`)}">
    ${csrfField(view.csrf)}
    <fieldset${invalid('date')}>
      <legend>${t('self.dayLegend')}</legend>
      ${problem('date')}
      <label class="choice"><input type="radio" name="date" value=""${view.values.date === '' ? html` checked` : ''}> <span>${keep}</span></label>
      ${view.days.map(
        (day) =>
          html`<label class="choice"><input type="radio" name="date" value="${day}"${view.values.date === day ? html` checked` : ''}> <span>${formatDay(ctx.lang, day)}</span></label>`,
      )}
    </fieldset>
    <label for="instructions">${t('self.instructionsLabel')}</label>
    ${problem('instructions')}
    <textarea id="instructions" name="instructions" rows="3" maxlength="500"${invalid('instructions')}>${view.values.instructions}</textarea>
    <p class="hint">${t('self.instructionsHint')}</p>
    <fieldset${invalid('safe_place')}>
      <legend>${t('self.safePlaceLegend')}</legend>
      ${problem('safe_place')}
      ${['none', ...SAFE_PLACE_KINDS].map(
        (kind) =>
          html`<label class="choice"><input type="radio" name="safe_place" value="${kind}"${view.values.safePlace === kind ? html` checked` : ''}> <span>${t(`self.safePlace.${kind}` as TrackingKey)}</span></label>`,
      )}
    </fieldset>
    <label for="safe_place_detail">${t('self.safePlaceDetailLabel')}</label>
    ${problem('safe_place_detail')}
    <input id="safe_place_detail" name="safe_place_detail" maxlength="200" value="${view.values.safePlaceDetail}"${invalid('safe_place_detail')}>
    <button type="submit" class="button">${t('self.save')}</button>
  </form>`,
  );
}

/** The order can no longer be changed (out for delivery, delivered, returned, cancelled, no address yet). */
export function closedPage(ctx: LayoutContext, view: SelfServiceBase): Html {
  const t = trackingWording(ctx.lang);
  return page(ctx, view, html`<h2>${t('self.closedTitle')}</h2><p class="lead">${t('self.closedBody')}</p>`);
}
