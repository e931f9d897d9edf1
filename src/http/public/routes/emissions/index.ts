import { Type } from '@sinclair/typebox';
import type { EmissionService } from '../../../../domain/emissions/emission-service.ts';
import {
  emissionStatementCsv,
  emissionStatementJson,
} from '../../../../domain/emissions/statement-documents.ts';
import type { TypedApp } from '../../../shared/app-types.ts';
import { principalOf } from '../../../shared/plugins/auth.ts';
import { EmissionStatementSchema } from '../../../shared/schemas/emissions.ts';
import { errorResponses, PDF_DOCUMENT_RESPONSE, StringEnum } from '../../../shared/schemas/shared.ts';

/** What the emissions routes use. */
interface EmissionsRouteContext {
  emissions: EmissionService;
}

const CSV_TYPE = 'text/csv';

const PeriodQuery = {
  period: Type.String({
    maxLength: 7,
    description: 'The month, `YYYY-MM` (Europe/Paris): the orders delivered or returned in it.',
    examples: ['2026-11'],
  }),
};

const StatementQuery = Type.Object(
  {
    ...PeriodQuery,
    format: Type.Optional(
      StringEnum(['json', 'csv'] as const, {
        description:
          'json (the default) or csv (grams and metres, one row per vehicle kind and data level, then the total).',
      }),
    ),
  },
  { additionalProperties: false },
);

const StatementResponse = Type.Object(
  { ok: Type.Literal(true), emissions: EmissionStatementSchema },
  { additionalProperties: false },
);

/** **Extension** (SPEC §14): the brand's monthly greenhouse-gas statement. */
export function emissionRoutes(app: TypedApp, deps: EmissionsRouteContext): void {
  app.get(
    '/emissions',
    {
      config: { auth: 'invoices:read' },
      schema: {
        operationId: 'getEmissionStatement',
        summary: "**Extension.** The month's greenhouse gases of the brand's deliveries",
        description:
          'The information the Code des transports (L1431-3, D1431-1 ff.) requires for transport services: the CO₂e of the orders delivered or returned in the month, ' +
          "by vehicle kind and data level, with the method. The totals are the sum of the orders' `co2e.grams`. `format=csv` for a spreadsheet; `/emissions/pdf` for the PDF. See docs/emissions.md.",
        tags: ['Emissions'],
        querystring: StatementQuery,
        response: {
          200: {
            description: 'The statement, or its CSV.',
            content: {
              'application/json': { schema: StatementResponse },
              [CSV_TYPE]: { schema: { type: 'string', maxLength: 100_000 } },
            },
          },
          ...errorResponses([400, 401, 403, 429]),
        },
      },
    },
    async (request, reply) => {
      const statement = await deps.emissions.statement(principalOf(request).brand.id, request.query.period);
      if (request.query.format !== 'csv')
        return { ok: true as const, emissions: emissionStatementJson(statement) };
      return reply
        .type(`${CSV_TYPE}; charset=utf-8`)
        .header('content-disposition', `attachment; filename="emissions-${statement.period}.csv"`)
        .send(emissionStatementCsv(statement));
    },
  );

  app.get(
    '/emissions/pdf',
    {
      config: { auth: 'invoices:read' },
      schema: {
        operationId: 'getEmissionStatementPdf',
        summary: "**Extension.** The month's greenhouse-gas statement as a PDF",
        tags: ['Emissions'],
        querystring: Type.Object(PeriodQuery, { additionalProperties: false }),
        response: { 200: PDF_DOCUMENT_RESPONSE, ...errorResponses([400, 401, 403, 429]) },
      },
    },
    async (request, reply) => {
      const brand = principalOf(request).brand;
      const pdf = await deps.emissions.statementPdf(brand, request.query.period);
      return reply
        .type('application/pdf')
        .header('content-disposition', `inline; filename="emissions-${request.query.period}.pdf"`)
        .send(pdf);
    },
  );
}
