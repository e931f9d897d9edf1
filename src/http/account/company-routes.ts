import type { FastifyInstance, FastifyReply } from 'fastify';
import { type CompanyInput, canEditCompany, mayEditCompany } from '../../domain/brands/billing.ts';
import type { BrandService } from '../../domain/brands/brand-service.ts';
import { missingForInvoicing } from '../../domain/brands/company-readiness.ts';
import type { ProofService } from '../../domain/proofs/proof-service.ts';
import { authorOf } from '../shared/author.ts';
import { userOf } from '../shared/principal.ts';
import type { PageContextOf } from './context.ts';
import { fieldErrors } from './field-errors.ts';
import { list, query, text } from './form.ts';
import { companyPage, companyValues } from './views/company-page.ts';

const SIGNED_IN = { config: { auth: 'session' as const }, schema: { hide: true } };

const sendPage = (reply: FastifyReply, body: string, status = 200) =>
  reply.code(status).type('text/html; charset=utf-8').send(body);

const COMPANY_FIELDS = {
  legal_name: { name: 'legal_name', label: 'company.legalName' },
  billing_address: { name: 'billing_address', label: 'company.billingAddress' },
  siren: { name: 'siren', label: 'company.siren' },
  siret: { name: 'siret', label: 'company.siret' },
  vat_number: { name: 'vat_number', label: 'company.vat' },
  pickup_address: { name: 'pickup_address', label: 'company.pickup' },
} as const;

/** What the company page uses. */
interface CompanyRoutesContext {
  brands: BrandService;
  proofs: Pick<ProofService, 'showsPhotoOnTracking' | 'setShowsPhotoOnTracking'>;
}

/**
 * `/account/company`: what the invoices print about the brand, and its default pickup address.
 * The owner edits them; developers and finance people see them read only (finance checks what
 * the invoices will say).
 */
export function companyRoutes(
  app: FastifyInstance,
  deps: CompanyRoutesContext,
  { context }: { context: PageContextOf },
): void {
  app.get('/company', SIGNED_IN, async (request, reply) => {
    const { session } = userOf(request);
    const brand = await deps.brands.get(session.user.brandId);
    const saved = query(request, 'saved', 10);
    const page = companyPage(await context(request, reply), {
      values: companyValues(brand),
      missingForInvoicing: missingForInvoicing(brand).length > 0,
      editable: canEditCompany(session.user.role),
      saved: saved === '1',
      trackingPhoto: await deps.proofs.showsPhotoOnTracking(session.user.brandId),
      trackingSaved: saved === 'tracking',
    });
    return sendPage(reply, page);
  });

  app.post('/company', SIGNED_IN, async (request, reply) => {
    const { session } = userOf(request);
    mayEditCompany(session.user);
    // Read inside the `try` (a field's control character is its error: form.ts), again to redraw the form.
    const typed = (): CompanyInput => ({
      legalName: text(request, 'legal_name', 201),
      billingAddress: text(request, 'billing_address', 501),
      siren: text(request, 'siren', 40),
      siret: text(request, 'siret', 40),
      vatNumber: text(request, 'vat_number', 40),
      pickupAddress: text(request, 'pickup_address', 501),
    });
    try {
      await deps.brands.updateCompany(session.user.brandId, typed(), authorOf(request));
    } catch (err) {
      const ctx = await context(request, reply);
      const errors = fieldErrors(err, ctx, COMPANY_FIELDS);
      const trackingPhoto = await deps.proofs.showsPhotoOnTracking(session.user.brandId);
      return sendPage(
        reply,
        companyPage(ctx, { values: typed(), editable: true, errors, trackingPhoto }),
        400,
      );
    }
    return reply.redirect('/account/company?saved=1', 303);
  });

  // The tracking page's delivery photo: a form of its own, so it never re-submits the invoice details.
  app.post('/company/tracking', SIGNED_IN, async (request, reply) => {
    const { session } = userOf(request);
    mayEditCompany(session.user);
    const shown = list(request, 'tracking_shows_proof_photo', 2).includes('1');
    await deps.proofs.setShowsPhotoOnTracking(session.user.brandId, shown);
    return reply.redirect('/account/company?saved=tracking', 303);
  });
}
