import { Type } from '@sinclair/typebox';
import { companyInputWith } from '../../../domain/brands/billing.ts';
import type { Brand } from '../../../domain/brands/brand.ts';
import type { BrandService } from '../../../domain/brands/brand-service.ts';
import { missingForInvoicing } from '../../../domain/brands/company-readiness.ts';
import type { EInvoiceTransmissionService } from '../../../domain/einvoicing/transmission-service.ts';
import { invoiceJson, invoiceLineJson, linesCo2eGrams } from '../../../domain/invoices/invoice-json.ts';
import type { InvoiceService } from '../../../domain/invoices/invoice-service.ts';
import type { TypedApp } from '../../shared/app-types.ts';
import { authorOf } from '../../shared/author.ts';
import { absentBodyIsEmpty } from '../../shared/optional-body.ts';
import {
  CompanyResponse,
  CompanyUpdate,
  EInvoiceTransmissionSchema,
} from '../../shared/schemas/einvoicing.ts';
import {
  InvoiceDetailResponse,
  InvoiceIdParams,
  InvoiceListQuery,
  InvoiceListResponse,
  InvoiceSchema,
  PERIOD_PATTERN,
} from '../../shared/schemas/invoices.ts';
import { errorResponses, NoBody, PrefixedId } from '../../shared/schemas/shared.ts';
import { BrandIdParams } from './brands.ts';

const TAGS = ['Invoices and grids'];

const BrandInvoice = Type.Object({ brand_id: PrefixedId('brd', 16), invoice: Type.Ref(InvoiceSchema) });

const OpsInvoiceResponse = Type.Object({
  ok: Type.Literal(true),
  brand_id: PrefixedId('brd', 16),
  invoice: Type.Ref(InvoiceSchema),
  lines: Type.Array(
    Type.Object({
      tracking_ref: Type.String({ maxLength: 14 }),
      service: Type.String({ maxLength: 20 }),
      created_at: Type.String({ format: 'date-time', maxLength: 30 }),
      price_excl_tax_eur: Type.Number(),
      vat_eur: Type.Number(),
      price_eur: Type.Number(),
    }),
    { maxItems: 100_000 },
  ),
  einvoice: Type.Union([EInvoiceTransmissionSchema, Type.Null()], {
    description:
      'The transmission to the e-invoicing platform; null for a document issued before e-invoicing.',
  }),
});

const IssueRequest = Type.Object(
  {
    month: Type.String({
      pattern: PERIOD_PATTERN,
      maxLength: 7,
      description: 'A month that is over, YYYY-MM.',
    }),
  },
  { additionalProperties: false },
);

const IssueResponse = Type.Object({
  ok: Type.Literal(true),
  period: Type.String({ maxLength: 7 }),
  issued: Type.Array(Type.Object({ brand_id: PrefixedId('brd', 16), invoice: Type.Ref(InvoiceSchema) }), {
    maxItems: 100_000,
  }),
  held: Type.Array(
    Type.Object({
      brand_id: PrefixedId('brd', 16),
      brand_name: Type.String({ maxLength: 200 }),
      missing: Type.Array(
        Type.Object({ field: Type.String({ maxLength: 40 }), message: Type.String({ maxLength: 200 }) }),
        {
          maxItems: 2,
        },
      ),
      reason: Type.String({ maxLength: 1000 }),
    }),
    {
      maxItems: 100_000,
      description:
        'Brands with billable orders whose invoice cannot be issued: what their e-invoice lacks. Not issued (no number used); issued by the first run after it is given.',
    },
  ),
});

/** What the operator's invoice and company routes use. */
interface OpsInvoicesRouteContext {
  invoices: InvoiceService;
  einvoices: Pick<EInvoiceTransmissionService, 'details'>;
  brands: BrandService;
}

const companyJson = (brand: Brand) => ({
  legal_name: brand.legalName,
  billing_address: brand.billingAddress,
  siren: brand.siren,
  siret: brand.siret,
  vat_number: brand.vatNumber,
  pickup_address: brand.defaultPickupAddress,
});

/**
 * Billing for the finance people: a brand's invoices and credit notes, any document with its
 * e-invoice's transmission, issuing a month, marking an invoice paid, and the brands' company data
 * an e-invoice needs. The same services as `dlv invoices` and `dlv brands company` (credit notes are
 * issued by the cancellations and re-pricings that call for them, never by hand).
 */
export function opsInvoiceRoutes(app: TypedApp, deps: OpsInvoicesRouteContext): void {
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
        operationId: 'opsGetBrandInvoice',
        summary: "One of a brand's invoices or credit notes, with its lines",
        tags: TAGS,
        params: Type.Object({ ...BrandIdParams.properties, ...InvoiceIdParams.properties }),
        response: { 200: InvoiceDetailResponse, ...errorResponses([400, 401, 403, 404]) },
      },
    },
    async (request) => {
      const brand = await deps.brands.get(request.params.brandId);
      const { invoice, lines } = await deps.invoices.get(brand.id, request.params.id);
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
    '/invoices/:id',
    {
      config: { auth: { ops: 'invoices:read' } },
      schema: {
        operationId: 'opsGetInvoice',
        summary: "Any brand's issued invoice or credit note, with its e-invoice's transmission",
        description:
          'The e-invoice part says where the Factur-X stands on the platform, why it was refused or rejected, and every status it went through.',
        tags: TAGS,
        params: InvoiceIdParams,
        response: { 200: OpsInvoiceResponse, ...errorResponses([400, 401, 403, 404]) },
      },
    },
    async (request) => {
      const { invoice, lines } = await deps.invoices.getAny(request.params.id);
      const details = await deps.einvoices.details(invoice.id);
      return {
        ok: true as const,
        brand_id: invoice.brandId,
        invoice: invoiceJson(invoice),
        lines: lines.map(invoiceLineJson),
        einvoice: details
          ? {
              status: details.transmission.status,
              reason: details.transmission.statusReason,
              status_at: details.transmission.statusAt.toISOString(),
              platform: details.transmission.platform,
              flow_id: details.transmission.flowId,
              submitted_at: details.transmission.submittedAt?.toISOString() ?? null,
              attempts: details.transmission.attempts,
              last_error: details.transmission.lastError,
              history: details.history.map((step) => ({ ...step, at: step.at.toISOString() })),
            }
          : null,
      };
    },
  );

  app.post(
    '/invoices/issue',
    {
      config: { auth: { ops: 'invoices:write' } },
      schema: {
        operationId: 'opsIssueInvoices',
        summary: "Issue every brand's invoice of a month (idempotent)",
        description:
          'As the monthly job does; brands already invoiced for the month are skipped, so issuing twice issues nothing new, and a month not over yet is a 400 naming `month`. A brand lacking what its e-invoice needs (SIREN, a billing address with postcode and city) is listed in `held` with the reason.',
        tags: TAGS,
        body: IssueRequest,
        response: { 200: IssueResponse, ...errorResponses([400, 401, 403, 413, 415]) },
      },
    },
    async (request) => {
      const { period, issued, held } = await deps.invoices.issueMonth(request.body.month, authorOf(request));
      return {
        ok: true as const,
        period,
        issued: issued.map((invoice) => ({ brand_id: invoice.brandId, invoice: invoiceJson(invoice) })),
        held: held.map((h) => ({
          brand_id: h.brandId,
          brand_name: h.brandName,
          missing: h.missing,
          reason: h.reason,
        })),
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
          'Without the VAT-on-debits option (EINVOICE_VAT_ON_DEBITS), its payment data (date, amounts per VAT rate) is then sent to the e-invoicing platform. Marking a paid invoice again changes nothing. A draft or a credit note (which is not paid: it reduces its invoice) is a 422 `invalid_transition`.',
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
      const invoice = await deps.invoices.markPaid(request.params.id, authorOf(request));
      return { ok: true as const, brand_id: invoice.brandId, invoice: invoiceJson(invoice) };
    },
  );

  app.get(
    '/brands/:brandId/company',
    {
      config: { auth: { ops: 'brands:read' } },
      schema: {
        operationId: 'opsGetBrandCompany',
        summary: "A brand's company data, and what its e-invoices still lack",
        tags: TAGS,
        params: BrandIdParams,
        response: { 200: CompanyResponse, ...errorResponses([400, 401, 403, 404]) },
      },
    },
    async (request) => {
      const brand = await deps.brands.get(request.params.brandId);
      return {
        ok: true as const,
        brand_id: brand.id,
        company: companyJson(brand),
        missing_for_invoicing: missingForInvoicing(brand),
      };
    },
  );

  app.patch(
    '/brands/:brandId/company',
    {
      config: { auth: { ops: 'brands:write' } },
      schema: {
        operationId: 'opsUpdateBrandCompany',
        summary: "Change a brand's company data (as its owner does on the Company page)",
        description:
          'The same checks as the account area: a SIREN passing the Luhn check, a SIRET starting with it, the VAT number of that SIREN, a billing address with its postcode and city. Every mistake is reported at once (400, one detail per field), and nothing is changed then.',
        tags: TAGS,
        params: BrandIdParams,
        body: CompanyUpdate,
        response: { 200: CompanyResponse, ...errorResponses([400, 401, 403, 404, 413, 415]) },
      },
    },
    async (request) => {
      const current = await deps.brands.get(request.params.brandId);
      const b = request.body;
      const input = companyInputWith(current, {
        ...(b.legal_name !== undefined ? { legalName: b.legal_name } : {}),
        ...(b.billing_address !== undefined ? { billingAddress: b.billing_address } : {}),
        ...(b.siren !== undefined ? { siren: b.siren } : {}),
        ...(b.siret !== undefined ? { siret: b.siret } : {}),
        ...(b.vat_number !== undefined ? { vatNumber: b.vat_number } : {}),
        ...(b.pickup_address !== undefined ? { pickupAddress: b.pickup_address } : {}),
      });
      const brand = await deps.brands.updateCompany(current.id, input, authorOf(request));
      return {
        ok: true as const,
        brand_id: brand.id,
        company: companyJson(brand),
        missing_for_invoicing: missingForInvoicing(brand),
      };
    },
  );
}
