import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { InvoiceService } from '../../domain/invoices/invoice-service.ts';
import { userOf } from '../shared/principal.ts';
import type { PageContextOf } from './context.ts';
import { query } from './form.ts';
import { invoicePage, invoicesPage } from './views/invoice-pages.ts';

const SIGNED_IN = { config: { auth: 'session' as const }, schema: { hide: true } };

const sendPage = (reply: FastifyReply, body: string, status = 200) =>
  reply.code(status).type('text/html; charset=utf-8').send(body);

const idOf = (request: FastifyRequest) => (request.params as { id: string }).id;

/** What the invoice pages use. */
interface InvoiceRoutesContext {
  invoices: InvoiceService;
}

/** The brand's invoices and credit notes, one with its lines, and its PDF. Every role sees them. */
export function invoiceRoutes(
  app: FastifyInstance,
  deps: InvoiceRoutesContext,
  { context }: { context: PageContextOf },
): void {
  const { invoices } = deps;

  app.get('/invoices', SIGNED_IN, async (request, reply) => {
    const { session } = userOf(request);
    const cursor = query(request, 'cursor', 500);
    // A bad cursor is a 400 page (the service's message): only a hand-edited address has one.
    const page = await invoices.list(session.user.brandId, { limit: 24, ...(cursor ? { cursor } : {}) });
    return sendPage(reply, invoicesPage(await context(request, reply), { ...page, paged: cursor !== '' }));
  });

  app.get('/invoices/:id', SIGNED_IN, async (request, reply) => {
    const { session } = userOf(request);
    const { invoice, lines } = await invoices.get(session.user.brandId, idOf(request));
    return sendPage(reply, invoicePage(await context(request, reply), invoice, lines));
  });

  app.get('/invoices/:id/pdf', SIGNED_IN, async (request, reply) => {
    const { session } = userOf(request);
    const { invoice, pdf } = await invoices.pdf(session.user.brandId, idOf(request));
    // Numbers (F2026-000042, A… for a credit note) are safe in a header; a draft has none yet.
    const name = invoice.number ?? `draft-${invoice.period}`;
    return reply
      .type('application/pdf')
      .header('content-disposition', `attachment; filename="${name}.pdf"`)
      .header('cache-control', 'private, no-store')
      .send(pdf);
  });
}
