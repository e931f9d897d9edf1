import { invoiceJson } from '../domain/invoices/invoice-json.ts';
import { BRAND_FLAG, type CommandSpec, command, requireArg, requireFlag, table } from './context.ts';

const euros = (value: number) => `${value.toFixed(2)} €`;

export const invoiceCommands: CommandSpec[] = [
  command({
    path: 'invoices issue',
    writesNoLinks: true,
    description: "issue every brand's invoice of a month (idempotent: an issued month is skipped)",
    flags: { month: { value: 'YYYY-MM', description: 'the month', required: true } },
    async run(ctx) {
      const { period, issued, held } = await ctx.deps.invoices.issueMonth(requireFlag(ctx, 'month'), ctx.by);
      const rows = issued.map((i) => [
        i.number ?? '',
        i.brandId,
        String(i.orderCount),
        euros(i.totalCents / 100),
      ]);
      const done =
        issued.length === 0
          ? held.length === 0
            ? `Nothing to issue for ${period}: every brand with billable orders is already invoiced.`
            : `No invoice issued for ${period}.`
          : `Issued ${issued.length} invoice(s) for ${period}:\n${table([['NUMBER', 'BRAND', 'ORDERS', 'TOTAL'], ...rows])}`;
      // Held brands are said on every run until their details are given: the next run issues them.
      const notIssued =
        held.length === 0
          ? ''
          : `\nNot issued, ${held.length} brand(s) lacking what an e-invoice needs:\n${held.map((h) => `- ${h.reason}`).join('\n')}`;
      ctx.out(`${done}${notIssued}`, {
        period,
        issued: issued.map((i) => ({ brand_id: i.brandId, ...invoiceJson(i) })),
        held: held.map((h) => ({
          brand_id: h.brandId,
          brand_name: h.brandName,
          missing: h.missing,
          reason: h.reason,
        })),
      });
    },
  }),
  command({
    path: 'invoices mark-paid',
    writesNoLinks: true,
    description: 'mark an issued invoice paid (a credit note is not paid: refused)',
    args: [{ name: 'INVOICE_ID', description: 'the invoice (inv_…)' }],
    async run(ctx) {
      const invoice = await ctx.deps.invoices.markPaid(requireArg(ctx, 0, 'INVOICE_ID'), ctx.by);
      ctx.out(`${invoice.number} (${invoice.id}) is paid (${invoice.paidAt?.toISOString()})`, {
        brand_id: invoice.brandId,
        ...invoiceJson(invoice),
      });
    },
  }),
  command({
    path: 'invoices show',
    writesNoLinks: true,
    description: "an issued invoice or credit note of any brand, with its e-invoice's status and history",
    args: [{ name: 'INVOICE_ID', description: 'the invoice or credit note (inv_…)' }],
    async run(ctx) {
      const { invoice, lines } = await ctx.deps.invoices.getAny(requireArg(ctx, 0, 'INVOICE_ID'));
      const details = await ctx.deps.einvoices.details(invoice.id);
      const rows = [
        ['NUMBER', invoice.number ?? '—'],
        ['TYPE', invoice.creditsInvoice ? `credit note of ${invoice.creditsInvoice.number}` : 'invoice'],
        ['BRAND', invoice.brandId],
        ['PERIOD', invoice.period],
        ['STATUS', invoice.status],
        ['ORDERS', String(invoice.orderCount)],
        ['TOTAL', euros(invoice.totalCents / 100)],
        ['E-INVOICE', details ? details.transmission.status : 'none (issued before e-invoicing)'],
        ...(details?.transmission.statusReason ? [['REASON', details.transmission.statusReason]] : []),
        ...(details?.transmission.lastError ? [['LAST ERROR', details.transmission.lastError]] : []),
      ];
      const history = details
        ? `\n${table([['WHEN', 'E-INVOICE STATUS', 'REASON'], ...details.history.map((h) => [h.at.toISOString(), h.status, h.reason ?? ''])])}`
        : '';
      ctx.out(`${table(rows)}${history}`, {
        brand_id: invoice.brandId,
        ...invoiceJson(invoice),
        line_count: lines.length,
        einvoice: details
          ? {
              status: details.transmission.status,
              reason: details.transmission.statusReason,
              platform: details.transmission.platform,
              flow_id: details.transmission.flowId,
              attempts: details.transmission.attempts,
              last_error: details.transmission.lastError,
              history: details.history.map((h) => ({ ...h, at: h.at.toISOString() })),
            }
          : null,
      });
    },
  }),
  command({
    path: 'invoices list',
    writesNoLinks: true,
    description: "a brand's invoices and credit notes",
    flags: { brand: BRAND_FLAG },
    async run(ctx) {
      const brand = await ctx.deps.brands.get(requireFlag(ctx, 'brand'));
      const { invoices } = await ctx.deps.invoices.list(brand.id, { limit: 200 });
      const rows = invoices.map((i) => [
        i.id,
        i.creditsInvoice ? 'credit_note' : 'invoice',
        i.number ?? '—',
        i.period,
        i.status,
        String(i.orderCount),
        euros(i.totalCents / 100),
        i.creditsInvoice?.number ?? '',
      ]);
      const header = ['ID', 'TYPE', 'NUMBER', 'PERIOD', 'STATUS', 'ORDERS', 'TOTAL', 'CREDITS'];
      ctx.out(table([header, ...rows]), {
        invoices: invoices.map(invoiceJson),
      });
    },
  }),
];
