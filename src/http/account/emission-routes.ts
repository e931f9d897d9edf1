import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { BrandService } from '../../domain/brands/brand-service.ts';
import type { EmissionService } from '../../domain/emissions/emission-service.ts';
import { emissionStatementCsv } from '../../domain/emissions/statement-documents.ts';
import { userOf } from '../shared/principal.ts';
import type { PageContextOf } from './context.ts';
import { emissionsPage } from './views/emission-pages.ts';

const SIGNED_IN = { config: { auth: 'session' as const }, schema: { hide: true } };

const periodOf = (request: FastifyRequest) => (request.params as { period: string }).period;

const download = (reply: FastifyReply, type: string, name: string, body: string | Buffer) =>
  reply
    .type(type)
    .header('content-disposition', `attachment; filename="${name}"`)
    .header('cache-control', 'private, no-store')
    .send(body);

/** What the emissions pages use. */
interface EmissionRoutesContext {
  emissions: EmissionService;
  brands: BrandService;
}

/**
 * The brand's monthly greenhouse-gas statements (SPEC §14): its months with their CO₂e, each as
 * the CSV and the PDF the API gives. Every role sees them, as it sees the invoices they go with.
 */
export function emissionRoutes(
  app: FastifyInstance,
  deps: EmissionRoutesContext,
  { context }: { context: PageContextOf },
): void {
  const { emissions, brands } = deps;

  app.get('/emissions', SIGNED_IN, async (request, reply) => {
    const { session } = userOf(request);
    const months = await emissions.months(session.user.brandId);
    return reply.type('text/html; charset=utf-8').send(emissionsPage(await context(request, reply), months));
  });

  // The period is checked by the service (a 400 page for a hand-edited address); once checked it
  // is YYYY-MM, safe in a header.
  app.get('/emissions/:period/csv', SIGNED_IN, async (request, reply) => {
    const { session } = userOf(request);
    const statement = await emissions.statement(session.user.brandId, periodOf(request));
    return download(
      reply,
      'text/csv; charset=utf-8',
      `emissions-${statement.period}.csv`,
      emissionStatementCsv(statement),
    );
  });

  app.get('/emissions/:period/pdf', SIGNED_IN, async (request, reply) => {
    const { session } = userOf(request);
    const brand = await brands.get(session.user.brandId);
    const pdf = await emissions.statementPdf({ id: brand.id, name: brand.name }, periodOf(request));
    return download(reply, 'application/pdf', `emissions-${periodOf(request).trim()}.pdf`, pdf);
  });
}
