import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type LabelService, labelOptions, type PrintedLabels } from '../../domain/labels/label-service.ts';
import { type AppError, isAppError } from '../../errors.ts';
import { userOf } from '../shared/principal.ts';
import { type PageContextOf, SIGNED_IN, sendPage } from './context.ts';
import { list, text } from './form.ts';
import { messagePage, type PageContext } from './views/layout.ts';

/** What the label pages use. */
interface LabelRoutesContext {
  labels: LabelService;
}

/** As many checkboxes as the orders page has rows. */
const MAX_SELECTED = 25;

function sendLabels(reply: FastifyReply, printed: PrintedLabels) {
  // PDF in the tab the form opened; ZPL is for a printer, not a browser: downloaded.
  const disposition = printed.contentType === 'application/pdf' ? 'inline' : 'attachment';
  return reply
    .type(printed.contentType)
    .header('content-disposition', `${disposition}; filename="${printed.filename}"`)
    .header('cache-control', 'private, no-store')
    .send(printed.body);
}

/** Why nothing was printed, in the reader's words, naming the orders concerned. */
function refusal(
  ctx: PageContext,
  err: AppError,
  refs: readonly string[],
): { status: number; message: string } | null {
  const named = (err.details ?? []).map((d) => {
    const index = /\[(\d+)\]/.exec(d.field)?.[1];
    return index === undefined ? (refs[0] ?? '') : (refs[Number(index)] ?? '');
  });
  const list = named.filter(Boolean).join(', ');
  if (err.code === 'not_labellable')
    return { status: 422, message: ctx.t('labels.notLabellable', { refs: list }) };
  if (err.code === 'unknown_orders') return { status: 422, message: ctx.t('labels.unknown', { refs: list }) };
  if (err.code === 'too_many_labels') return { status: 422, message: ctx.t('labels.tooMany') };
  return null;
}

/**
 * Labels from the account area: the orders page's selection and an order page's "Print label",
 * both form POSTs CSRF-checked by the area, opening the PDF in a new tab. Without JavaScript: plain
 * forms. Nothing is printed when any order cannot be: the page says which.
 *
 * Never a GET: the first print of an order marks it labelled and tells the brand's listeners
 * (`order.labelled`), and the session cookie (SameSite=Lax) rides along a top-level link from any
 * site, so a link elsewhere could print for the person. The public API's GET takes an API key,
 * which no other site's page holds.
 */
export function labelRoutes(
  app: FastifyInstance,
  deps: LabelRoutesContext,
  { context }: { context: PageContextOf },
): void {
  async function answer(
    request: FastifyRequest,
    reply: FastifyReply,
    refs: readonly string[],
    print: () => Promise<PrintedLabels>,
  ) {
    try {
      return sendLabels(reply, await print());
    } catch (err) {
      if (!isAppError(err)) throw err;
      const ctx = await context(request, reply);
      const refused = refusal(ctx, err, refs);
      if (!refused) throw err;
      const back = { href: '/account/orders', label: ctx.t('orders.back') };
      return sendPage(reply, messagePage(ctx, ctx.t('labels.title'), refused.message, back), refused.status);
    }
  }

  app.post('/orders/:trackingRef/label', SIGNED_IN, async (request, reply) => {
    const { session } = userOf(request);
    const ref = (request.params as { trackingRef: string }).trackingRef;
    const options = labelOptions(text(request, 'format', 10) || 'pdf', text(request, 'size', 10) || 'a6');
    return answer(request, reply, [ref], () => deps.labels.printOne(session.user.brandId, ref, options));
  });

  app.post('/labels', SIGNED_IN, async (request, reply) => {
    const { session } = userOf(request);
    const refs = list(request, 'ref', MAX_SELECTED)
      .map((r) => r.trim())
      .filter(Boolean);
    const options = labelOptions(text(request, 'format', 10) || 'pdf', text(request, 'size', 10) || 'a6');
    if (refs.length === 0) {
      const ctx = await context(request, reply);
      const back = { href: '/account/orders', label: ctx.t('orders.back') };
      return sendPage(
        reply,
        messagePage(ctx, ctx.t('labels.title'), ctx.t('labels.noneSelected'), back),
        400,
      );
    }
    return answer(request, reply, refs, () => deps.labels.printBatch(session.user.brandId, refs, options));
  });
}
