import type { Locale } from '../../i18n/locales.ts';
import { trackingWording } from '../../i18n/tracking.ts';
import type { RecipientEmail } from './ports.ts';

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/**
 * The e-mail carrying a one-time code: no link (a code asked for on the page is typed there), no
 * unsubscribe header (the recipient asked for it; contract 0007), the brand named.
 */
export function codeEmail(
  locale: Locale,
  to: string,
  brandName: string,
  code: string,
): Omit<RecipientEmail, 'fromName'> {
  const t = trackingWording(locale);
  const minutes = 10;
  const text = [
    t('code.mailGreeting'),
    '',
    t('code.mailBody', { brand: brandName }),
    '',
    code,
    '',
    t('code.mailExpiry', { minutes }),
    t('code.mailIgnore'),
  ].join('\n');
  const html = `<!doctype html><html lang="${locale}"><body style="font-family:sans-serif;color:#1f2933">
<p>${escapeHtml(t('code.mailGreeting'))}</p>
<p>${escapeHtml(t('code.mailBody', { brand: brandName }))}</p>
<p style="font-size:28px;letter-spacing:6px;font-weight:bold">${code}</p>
<p>${escapeHtml(t('code.mailExpiry', { minutes }))}<br>${escapeHtml(t('code.mailIgnore'))}</p>
</body></html>`;
  return { to, subject: t('code.mailSubject', { brand: brandName }), text, html, unsubscribeUrl: null };
}

/** The SMS carrying a code: the brand first, short, GSM-7 characters only. */
export function codeSms(locale: Locale, brandName: string, code: string): string {
  return trackingWording(locale)('code.sms', { brand: brandName, code });
}
