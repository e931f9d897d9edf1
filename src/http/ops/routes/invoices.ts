import { Type } from '@sinclair/typebox';
import type { BrandService } from '../../../domain/brands/brand-service.ts';
import { invoiceJson, invoiceLineJson } from '../../../domain/invoices/invoice-json.ts';
import type { InvoiceService } from '../../../domain/invoices/invoice-service.ts';
import type { TypedApp } from '../../shared/app-types.ts';
import {
  InvoiceDetailResponse,
  InvoiceIdParams,
  InvoiceListQuery,
  InvoiceListResponse,
  InvoiceSchema,
  PERIOD_PATTERN,
} from '../../shared/schemas/invoices.ts';
import { errorResponses, NoBody, PrefixedId } from '../../shared/schemas/shared.ts';
import { absentBodyIsEmpty } from '../../shared/validation.ts';
import { BrandIdParams } from './brands.ts';

const TAGS = ['Invoices and grids'];

const BrandInvoice = Type.Object({ brand_id: PrefixedId('brd', 16), invoice: Type.Ref(InvoiceSchema) });

/**
 * Billing for the finance people: a brand's invoices and credit notes, issuing a month, marking an
 * invoice paid. The same service as `dlv invoices` (credit notes are issued by the cancellations
 * and re-pricings that call for them, never by hand).
 */
export function opsInvoiceRoutes(
  app: TypedApp,
  deps: { invoices: InvoiceService; brands: BrandService },
): void {
  app.get(
    '/brands/:brandId/invoices',
    {
      config: { auth: { ops: 'invoices:read' } },
      schema: {
        operationId: 'opsListInvoices',
        summary: "A brand's invoices and credit notes, newest period first",
        description:
          'What the brand sees at `GET /public/v1/invoices`: the running month as a `draft`, credit notes with the invoice they correct.',
        tags: TAGS,
        params: BrandIdParams,
        querystring: InvoiceListQuery,
        response: { 200: InvoiceListResponse, ...errorResponses([400, 401, 403, 404]) },
      },
    },
    async (request) => {
      const brand = await deps.brands.get(request.params.brandId);
      const page = await deps.invoices.list(brand.id, request.query);
      return { ok: true as const, invoices: page.invoices.map(invoiceJson), next_cursor: page.nextCursor };
    },
  );

  app.get(
    '/brands/:brandId/invoices/:id',
    {
      config: { auth: { ops: 'invoices:read' } },
      schema: {
        operationId: 'opsGetInvoice',
        summary: "One of a brand's invoices or credit notes, with its lines",
        tags: TAGS,
        params: Type.Object({ ...BrandIdParams.properties, ...InvoiceIdParams.properties }),
        response: { 200: InvoiceDetailResponse, ...errorResponses([400, 401, 403, 404]) },
      },
    },
    async (request) => {
      const brand = await deps.brands.get(request.params.brandId);
      const { invoice, lines } = await deps.invoices.get(brand.id, request.params.id);
      return { ok: true as const, invoice: { ...invoiceJson(invoice), lines: lines.map(invoiceLineJson) } };
    },
  );

  app.post(
    '/invoices/issue',
    {
      config: { auth: { ops: 'invoices:write' } },
      schema: {
        operationId: 'opsIssueMonth',
        summary: "Issue every brand's invoice of a past month (idempotent)",
        description:
          'Brands already invoiced for the month are skipped, so issuing twice issues nothing new. A month not over yet is a 400 naming `month`. ' +
          'The scheduled job issues the previous month on the 1st anyway.',
        tags: TAGS,
        body: Type.Object(
          {
            month: Type.String({
              pattern: PERIOD_PATTERN,
              maxLength: 7,
              description: 'YYYY-MM (Europe/Paris).',
            }),
          },
          { additionalProperties: false },
        ),
        response: {
          200: Type.Object({
            ok: Type.Literal(true),
            period: Type.String({ pattern: PERIOD_PATTERN, maxLength: 7 }),
            issued: Type.Array(BrandInvoice, {
              maxItems: 100000,
              description: 'Empty when the month was issued already.',
            }),
          }),
          ...errorResponses([400, 401, 403, 413, 415]),
        },
      },
    },
    async (request) => {
      const { period, issued } = await deps.invoices.issueMonth(request.body.month);
      return {
        ok: true as const,
        period,
        issued: issued.map((i) => ({ brand_id: i.brandId, invoice: invoiceJson(i) })),
      };
    },
  );

  app.post(
    '/invoices/:id/mark-paid',
    {
      config: { auth: { ops: 'invoices:write' } },
      preValidation: absentBodyIsEmpty,
      schema: {
        operationId: 'opsMarkInvoicePaid',
        summary: 'Mark an issued invoice paid',
        description:
          'Marking a paid invoice again changes nothing. A draft or a credit note (which is not paid: it reduces its invoice) is a 422 `invalid_transition`.',
        tags: TAGS,
        params: InvoiceIdParams,
        body: NoBody,
        response: {
          200: Type.Object({ ok: Type.Literal(true), ...BrandInvoice.properties }),
          ...errorResponses([400, 401, 403, 404, 413, 415, 422]),
        },
      },
    },
    async (request) => {
      const invoice = await deps.invoices.markPaid(request.params.id);
      return { ok: true as const, brand_id: invoice.brandId, invoice: invoiceJson(invoice) };
    },
  );
}
