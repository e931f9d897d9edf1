import { invoiceJson, invoiceLineJson, linesCo2eGrams } from '../../../../domain/invoices/invoice-json.ts';
import type { InvoiceService } from '../../../../domain/invoices/invoice-service.ts';
import type { TypedApp } from '../../../shared/app-types.ts';
import { principalOf } from '../../../shared/plugins/auth.ts';
import {
  InvoiceDetailResponse,
  InvoiceIdParams,
  InvoiceListQuery,
  InvoiceListResponse,
} from '../../../shared/schemas/invoices.ts';
import { errorResponses, PDF_DOCUMENT_RESPONSE } from '../../../shared/schemas/shared.ts';

/** What the invoice routes use. */
interface InvoicesRouteContext {
  invoices: InvoiceService;
}

export function invoiceRoutes(app: TypedApp, deps: InvoicesRouteContext): void {
  app.get(
    '/invoices',
    {
      config: { auth: 'invoices:read' },
      schema: {
        operationId: 'listInvoices',
        summary: "List the brand's invoices and credit notes, newest period first",
        description:
          'The current month appears as a `draft` that accrues; past months are `issued` on the 1st, then `paid`. ' +
          'An order cancelled after its invoice was issued is credited by a credit note (`type: credit_note`), listed with the invoice it corrects.',
        tags: ['Invoices'],
        querystring: InvoiceListQuery,
        response: { 200: InvoiceListResponse, ...errorResponses([400, 401, 403, 429]) },
      },
    },
    async (request) => {
      const page = await deps.invoices.list(principalOf(request).brand.id, request.query);
      return { ok: true as const, invoices: page.invoices.map(invoiceJson), next_cursor: page.nextCursor };
    },
  );

  app.get(
    '/invoices/:id',
    {
      config: { auth: 'invoices:read' },
      schema: {
        operationId: 'getInvoice',
        summary: 'One invoice or credit note with its lines',
        tags: ['Invoices'],
        params: InvoiceIdParams,
        response: { 200: InvoiceDetailResponse, ...errorResponses([400, 401, 403, 404, 429]) },
      },
    },
    async (request) => {
      const { invoice, lines } = await deps.invoices.get(principalOf(request).brand.id, request.params.id);
      return {
        ok: true as const,
        invoice: {
          ...invoiceJson(invoice),
          co2e_grams: linesCo2eGrams(lines),
          lines: lines.map(invoiceLineJson),
        },
      };
    },
  );

  app.get(
    '/invoices/:id/pdf',
    {
      config: { auth: 'invoices:read' },
      schema: {
        operationId: 'getInvoicePdf',
        summary: 'The invoice or credit note as a PDF',
        description:
          "A French invoice with its legal mentions; a draft is marked as such and carries no number. A credit note reads FACTURE D'AVOIR / CREDIT NOTE and names the invoice it corrects.",
        tags: ['Invoices'],
        params: InvoiceIdParams,
        response: {
          200: PDF_DOCUMENT_RESPONSE,
          ...errorResponses([400, 401, 403, 404, 429]),
        },
      },
    },
    async (request, reply) => {
      const { invoice, pdf } = await deps.invoices.pdf(principalOf(request).brand.id, request.params.id);
      const name = invoice.number ?? `draft-${invoice.period}`;
      return reply
        .type('application/pdf')
        .header('content-disposition', `inline; filename="${name}.pdf"`)
        .header('cache-control', 'private, no-store')
        .send(pdf);
    },
  );
}
