/** `YYYY-MM-DDTHH:MM:SS` in UTC, WooCommerce's `_gmt` format (sortable as text). */
export const gmt = (d: Date) => d.toISOString().slice(0, 19);
