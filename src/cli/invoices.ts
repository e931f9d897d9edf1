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
      const { period, issued } = await ctx.deps.invoices.issueMonth(requireFlag(ctx, 'month'), ctx.by);
      const rows = issued.map((i) => [
        i.number ?? '',
        i.brandId,
        String(i.orderCount),
        euros(i.totalCents / 100),
      ]);
      ctx.out(
        issued.length === 0
          ? `Nothing to issue for ${period}: every brand with billable orders is already invoiced.`
          : `Issued ${issued.length} invoice(s) for ${period}:\n${table([['NUMBER', 'BRAND', 'ORDERS', 'TOTAL'], ...rows])}`,
        { period, issued: issued.map((i) => ({ brand_id: i.brandId, ...invoiceJson(i) })) },
      );
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
