import type { Locale } from '../../../i18n/locales.ts';
import { trackingWording } from '../../../i18n/tracking.ts';
import { type SafeHtml as Html, html } from '../../shared/html.ts';

export interface LayoutContext {
  lang: Locale;
  /** The stylesheet's URL, versioned by its content (it is cached for a year). */
  stylesheet: string;
}

/** The brand's own look (its recipient settings): logo, colour; null members for the defaults. */
export interface BrandLook {
  logoUrl: string | null;
  /** The validated `#rrggbb`, the text colour that reads on it, the nonce of the <style> that sets them. */
  colour: { value: string; ink: string; nonce: string } | null;
}

// What the <style> element may hold: nothing but a validated colour ever reaches it.
const HEX = /^#[0-9a-f]{6}$/;

/** The brand's colour as custom properties, in a <style> the CSP admits by its nonce (no style attribute). */
function brandStyle(colour: BrandLook['colour']): Html | '' {
  if (!colour || !HEX.test(colour.value) || !HEX.test(colour.ink)) return '';
  return html`<style nonce="${colour.nonce}">:root{--brand:${colour.value};--brand-ink:${colour.ink}}</style>`;
}

const HUES = 8;

/**
 * A brand's accent among a fixed palette, chosen from its name: a class, because the page's CSP
 * allows no inline style.
 */
function hueClass(brand: string): string {
  let h = 0;
  for (const c of brand) h = (h * 31 + c.codePointAt(0)!) >>> 0;
  return `hue-${h % HUES}`;
}

/** The document around every tracking page: head, the brand's bar, the language switch. */
export function layout(
  ctx: LayoutContext,
  page: { title: string; brand: string | null; body: Html; look?: BrandLook | null },
): Html {
  const t = trackingWording(ctx.lang);
  const other: Locale = ctx.lang === 'fr' ? 'en' : 'fr';
  const initial = page.brand ? [...page.brand.trim()][0]?.toUpperCase() : null;
  const look = page.brand ? (page.look ?? null) : null;
  const mark = look?.logoUrl
    ? html`<img class="brand-logo" src="${look.logoUrl}" alt="" height="40">`
    : html`<span class="monogram" aria-hidden="true">${initial}</span>`;
  return html`<html lang="${ctx.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<meta name="referrer" content="no-referrer">
<meta name="color-scheme" content="light">
<title>${page.title}</title>
<link rel="stylesheet" href="${ctx.stylesheet}">
${brandStyle(look?.colour ?? null)}
</head>
<body${look?.colour ? html` class="branded"` : ''}>
<header class="topbar">
  <div class="wrap topbar-inner">
    ${
      page.brand
        ? html`<span class="brand${look?.colour ? '' : ` ${hueClass(page.brand)}`}">${mark}<span class="brand-name">${page.brand}</span></span>`
        : html`<span class="brand"><span class="brand-name">${t('deliveredBy')}</span></span>`
    }
    <a class="lang-switch" href="?lang=${other}" hreflang="${other}" lang="${other}" title="${t('switchLabel')}">${t('switchTo')}</a>
  </div>
</header>
<main class="wrap">
${page.body}
</main>
<footer class="wrap footer"><p>${t('deliveredBy')}</p></footer>
</body>
</html>`;
}
