import { INTL_LOCALE } from '../../../i18n/locales.ts';
import type { PageContext } from './layout.ts';

const intlLocale = (ctx: PageContext) => INTL_LOCALE[ctx.locale];

/** An instant as a Paris wall-clock date and time, in the page's language. */
export const parisDateTime = (ctx: PageContext, instant: Date | string) =>
  new Intl.DateTimeFormat(intlLocale(ctx), {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: 'Europe/Paris',
  }).format(new Date(instant));

/** A calendar date (YYYY-MM-DD, already a Paris day): formatted in UTC so it never shifts a day. */
export const calendarDate = (ctx: PageContext, date: string | null) =>
  date
    ? new Intl.DateTimeFormat(intlLocale(ctx), { dateStyle: 'medium', timeZone: 'UTC' }).format(
        new Date(`${date}T00:00:00Z`),
      )
    : '—';

/** A billing period (YYYY-MM) as "November 2026" / "novembre 2026". */
export const monthOf = (ctx: PageContext, period: string) =>
  new Intl.DateTimeFormat(intlLocale(ctx), { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${period}-01T00:00:00Z`),
  );

/** Integer cents as euros ("12,34 €" / "€12.34"); money stays in cents until this last step. */
export const euros = (ctx: PageContext, cents: number | null) =>
  cents === null
    ? '—'
    : new Intl.NumberFormat(intlLocale(ctx), { style: 'currency', currency: 'EUR' }).format(cents / 100);

/** Euros of an order's JSON (already divided) back in cents for `euros`, exactly. */
export const jsonEurosToCents = (value: number | null) => (value === null ? null : Math.round(value * 100));

/** Grams as kilograms with three decimals ("1.234 kg CO₂e" / "1,234 kg CO₂e"), as the statement prints them. */
export const kilograms = (ctx: PageContext, grams: number) =>
  `${new Intl.NumberFormat(intlLocale(ctx), { minimumFractionDigits: 3, maximumFractionDigits: 3 }).format(grams / 1000)} kg CO₂e`;
