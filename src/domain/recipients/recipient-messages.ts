import { INTL_LOCALE, type Locale } from '../../i18n/locales.ts';
import { recipientWording } from '../../i18n/recipients.ts';
import type { DeliveryWindow } from './delivery-window.ts';
import type { NotificationStep } from './ports.ts';
import { composeSms } from './sms-text.ts';

/** The service's own colour (the tracking page's accent), when the brand chose none. */
export const DEFAULT_COLOUR = '#2f5bea';

/** What a notification says, whatever the channel. */
export interface MessageFacts {
  step: NotificationStep;
  locale: Locale;
  brandName: string;
  /** `#rrggbb` (validated by the settings); null: the service's colour. */
  colour: string | null;
  /** The HTML shows the logo attached as `cid:logo`. */
  hasLogo: boolean;
  carrierName: string;
  trackingRef: string;
  trackingUrl: string;
  /** The self-service page to choose another day (failed attempt). */
  changeUrl: string;
  /** The e-mail's unsubscribe link (also its List-Unsubscribe header). */
  unsubscribeUrl: string;
  promisedDate: string | null;
  /** Out for delivery, or its window moved: the 2-hour window, when the round gave one. */
  window: DeliveryWindow | null;
  /** When the order moved (delivered: the time of the delivery). */
  at: Date;
}

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
/** E-mail HTML is built here, outside the pages' `html` helper (a surface's): every value goes through this. */
const esc = (text: string): string => text.replace(/[&<>"']/g, (c) => ENTITIES[c]!);

/** Paris time of day as each language writes it: 10h15, 10:15. */
function timeOf(locale: Locale, at: Date): string {
  const [hour, minute] = new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Europe/Paris',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  })
    .format(at)
    .split(':');
  return locale === 'fr' ? `${hour}h${minute}` : `${hour}:${minute}`;
}

/** A calendar day (`YYYY-MM-DD`) as a reader writes it: mercredi 25 novembre, Wednesday 25 November. */
function dayOf(locale: Locale, isoDate: string): string {
  return new Intl.DateTimeFormat(INTL_LOCALE[locale], {
    timeZone: 'UTC',
    weekday: 'long',
    day: 'numeric',
    month: 'long',
  }).format(new Date(`${isoDate}T12:00:00Z`));
}

const parisDate = (at: Date): string =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(at);

/** Black or white, whichever reads better on `colour` (WCAG relative luminance). */
export function inkOn(colour: string): '#ffffff' | '#1c2430' {
  const channel = (i: number) => {
    const c = Number.parseInt(colour.slice(1 + 2 * i, 3 + 2 * i), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(0) + 0.7152 * channel(1) + 0.0722 * channel(2);
  // Contrast with white (1.05 / (L + 0.05)) against with near-black (L + 0.05) / 0.0645.
  return 1.05 / (luminance + 0.05) >= (luminance + 0.05) / 0.0645 ? '#ffffff' : '#1c2430';
}

/** The body's sentence and the main button (label and link) of a step. */
function content(facts: MessageFacts) {
  const t = recipientWording(facts.locale);
  const brand = facts.brandName;
  switch (facts.step) {
    case 'confirmed':
      return {
        sentence: t('body.confirmed', {
          brand,
          date: facts.promisedDate ? dayOf(facts.locale, facts.promisedDate) : '—',
        }),
        button: t('button.track'),
        url: facts.trackingUrl,
      };
    case 'out_for_delivery':
      return {
        sentence: facts.window
          ? t('body.out_for_delivery.window', {
              from: timeOf(facts.locale, facts.window.from),
              to: timeOf(facts.locale, facts.window.to),
            })
          : t('body.out_for_delivery.day', { brand }),
        button: t('button.track'),
        url: facts.trackingUrl,
      };
    case 'eta_changed':
      return {
        sentence: facts.window
          ? t('body.eta_changed.window', {
              from: timeOf(facts.locale, facts.window.from),
              to: timeOf(facts.locale, facts.window.to),
            })
          : t('body.eta_changed.day', { brand }),
        button: t('button.track'),
        url: facts.trackingUrl,
      };
    case 'delivered':
      return {
        sentence: t('body.delivered', {
          brand,
          date: dayOf(facts.locale, parisDate(facts.at)),
          time: timeOf(facts.locale, facts.at),
        }),
        button: t('button.delivered'),
        url: facts.trackingUrl,
      };
    case 'failed_attempt':
      return {
        sentence: t('body.failed_attempt', { brand }),
        button: t('button.change'),
        url: facts.changeUrl,
      };
  }
}

/** The e-mail of a step: subject, plain text and HTML (the logo, when there is one, as `cid:logo`). */
export function recipientEmail(facts: MessageFacts): { subject: string; text: string; html: string } {
  const t = recipientWording(facts.locale);
  const brand = facts.brandName;
  const { sentence, button, url } = content(facts);
  const subject = t(`subject.${facts.step}`, { brand });
  const heading = t(`heading.${facts.step}`);
  const secondary = facts.step === 'failed_attempt' ? facts.trackingUrl : null;

  const text = [
    heading,
    '',
    sentence,
    '',
    `${button}${facts.locale === 'fr' ? ' : ' : ': '}${url}`,
    ...(secondary ? [t('link.track', { url: secondary })] : []),
    '',
    t('trackingRef', { ref: facts.trackingRef }),
    '',
    '--',
    t('footer.why', { brand }),
    t('footer.carrier', { carrier: facts.carrierName }),
    t('footer.unsubscribeText', { url: facts.unsubscribeUrl }),
    '',
  ].join('\n');

  const colour = facts.colour ?? DEFAULT_COLOUR;
  const ink = inkOn(colour);
  const font = "font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;";
  // A logo is drawn for a light background: it sits on white over a band of the colour.
  const header = facts.hasLogo
    ? `<td style="background:#ffffff;padding:20px 24px;border-bottom:4px solid ${colour};"><img src="cid:logo" alt="${esc(brand)}" style="display:block;max-width:200px;max-height:60px;height:auto;border:0;"></td>`
    : `<td style="background:${colour};padding:20px 24px;${font}font-size:20px;font-weight:700;color:${ink};">${esc(brand)}</td>`;
  const windowBox = facts.window
    ? `<p style="margin:0 0 20px;padding:14px 16px;border-radius:6px;background:#f4f5f7;font-size:22px;font-weight:700;text-align:center;">${esc(timeOf(facts.locale, facts.window.from))} – ${esc(timeOf(facts.locale, facts.window.to))}</p>`
    : '';
  const html = `<!doctype html>
<html lang="${facts.locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>${esc(subject)}</title>
</head>
<body style="margin:0;padding:0;background:#f4f5f7;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background:#f4f5f7;">
<tr><td align="center" style="padding:24px 12px;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:560px;background:#ffffff;border-radius:8px;border:1px solid #e3e6eb;">
<tr>${header}</tr>
<tr><td style="padding:28px 24px 12px;${font}color:#1c2430;">
<h1 style="margin:0 0 12px;font-size:22px;line-height:1.3;">${esc(heading)}</h1>
<p style="margin:0 0 20px;font-size:16px;line-height:1.5;">${esc(sentence)}</p>
${windowBox}<table role="presentation" cellpadding="0" cellspacing="0" border="0"><tr><td style="border-radius:6px;background:${colour};"><a href="${esc(url)}" style="display:inline-block;padding:12px 22px;${font}font-size:16px;font-weight:600;color:${ink};text-decoration:none;">${esc(button)}</a></td></tr></table>
${secondary ? `<p style="margin:16px 0 0;font-size:14px;"><a href="${esc(secondary)}" style="color:${ink === '#ffffff' ? colour : '#1c2430'};">${esc(t('button.track'))}</a></p>` : ''}
<p style="margin:20px 0 0;font-size:13px;color:#5f6b7a;">${esc(t('trackingRef', { ref: facts.trackingRef }))}</p>
</td></tr>
<tr><td style="padding:16px 24px 24px;${font}font-size:12px;line-height:1.5;color:#5f6b7a;border-top:1px solid #e3e6eb;">
${esc(t('footer.why', { brand }))}<br>
${esc(t('footer.carrier', { carrier: facts.carrierName }))} · <a href="${esc(facts.unsubscribeUrl)}" style="color:#5f6b7a;">${esc(t('footer.unsubscribe'))}</a>
</td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`;
  return { subject, text, html };
}

/** The SMS of a step: the brand first, the link last, GSM-7 and one message where it fits. */
export function recipientSms(facts: Omit<MessageFacts, 'colour' | 'hasLogo' | 'unsubscribeUrl'>): string {
  const t = recipientWording(facts.locale);
  const message =
    facts.step === 'confirmed'
      ? t('sms.confirmed', { date: facts.promisedDate ? dayOf(facts.locale, facts.promisedDate) : '' })
      : facts.step === 'out_for_delivery' || facts.step === 'eta_changed'
        ? facts.window
          ? t(`sms.${facts.step}.window`, {
              from: timeOf(facts.locale, facts.window.from),
              to: timeOf(facts.locale, facts.window.to),
            })
          : t(`sms.${facts.step}.day`)
        : t(`sms.${facts.step}`);
  return composeSms({
    brand: facts.brandName,
    message,
    link: facts.step === 'failed_attempt' ? facts.changeUrl : facts.trackingUrl,
    locale: facts.locale,
  });
}
