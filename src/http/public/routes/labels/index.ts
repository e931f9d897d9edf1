import type { FastifyReply } from 'fastify';
import type { LabelOptions, LabelService, PrintedLabels } from '../../../../domain/labels/label-service.ts';
import type { TypedApp } from '../../../shared/app-types.ts';
import { principalOf } from '../../../shared/plugins/auth.ts';
import { LABEL_DOCUMENT, LabelBatchBody, LabelQuery } from '../../../shared/schemas/labels.ts';
import { IdempotencyHeaders, TrackingRefParams } from '../../../shared/schemas/orders.ts';
import { errorResponses } from '../../../shared/schemas/shared.ts';
import { idempotencyScope, markReplayed } from '../../idempotency-key.ts';
import type { IdempotentRequests } from '../../idempotent-requests.ts';

/** What the label routes use. */
interface LabelsRouteContext {
  labels: LabelService;
  idempotentRequests: IdempotentRequests;
}

const WHAT_IS_PRINTED =
  'A label carries our name and the service, the sort code (big, from the delivery postcode), the tracking ' +
  'reference in large type, a Code 128 of it and a DataMatrix of `reference|sort code|unit/units`, the sender ' +
  '(brand, pickup address), the recipient (name, address, phone), the promised day, the weight, "1/2"… and the ' +
  "brand's own reference. Never the customer's e-mail nor the amount. The first print records the order's " +
  '`labelled_at` and sends `order.labelled`; a reprint prints the same label and sends nothing.';

function send(reply: FastifyReply, printed: PrintedLabels, disposition: 'inline' | 'attachment') {
  return reply
    .type(printed.contentType)
    .header('content-disposition', `${disposition}; filename="${printed.filename}"`)
    .header('cache-control', 'private, no-store')
    .send(printed.body);
}

export function labelRoutes(app: TypedApp, deps: LabelsRouteContext): void {
  app.get(
    '/orders/:trackingRef/label',
    {
      config: { auth: 'orders:read' },
      schema: {
        operationId: 'getOrderLabel',
        summary: "An order's label (PDF or ZPL)",
        description: `Only an order that can be collected has a label: \`awaiting_address\` or \`cancelled\` is a 422 \`not_labellable\`. ${WHAT_IS_PRINTED}`,
        tags: ['Labels'],
        params: TrackingRefParams,
        querystring: LabelQuery,
        response: { 200: LABEL_DOCUMENT, ...errorResponses([400, 401, 403, 404, 422, 429]) },
      },
    },
    async (request, reply) => {
      const printed = await deps.labels.printOne(principalOf(request).brand.id, request.params.trackingRef, {
        format: request.query.format ?? 'pdf',
        size: request.query.size ?? 'a6',
      });
      return send(reply, printed, printed.contentType === 'application/pdf' ? 'inline' : 'attachment');
    },
  );

  app.post(
    '/labels',
    {
      config: { auth: 'orders:read' },
      schema: {
        operationId: 'printLabels',
        summary: 'The labels of up to 200 orders in one document',
        description:
          'One PDF (one label per page) or one ZPL stream, in the order of `tracking_refs`. A reference naming no ' +
          'order of the brand (422 `unknown_orders`) or an order that cannot be collected (422 `not_labellable`) is named in `details`, and nothing is printed nor recorded. ' +
          `At most 1,000 labels per document (422 \`too_many_labels\`). ${WHAT_IS_PRINTED} ` +
          'Send an `Idempotency-Key` to retry safely: a retry with the same key and body is answered with ' +
          '`Idempotent-Replayed: true` and the labels of the same orders printed again (the document is not ' +
          'stored; a reprint records nothing and sends no event).',
        tags: ['Labels'],
        headers: IdempotencyHeaders,
        body: LabelBatchBody,
        response: { 200: LABEL_DOCUMENT, ...errorResponses([400, 401, 403, 409, 413, 415, 422, 429]) },
      },
    },
    async (request, reply) => {
      const brandId = principalOf(request).brand.id;
      const refs = request.body.tracking_refs;
      const options: LabelOptions = { format: request.body.format ?? 'pdf', size: request.body.size ?? 'a6' };
      let printed: PrintedLabels | null = null;
      const result = await deps.idempotentRequests.run(
        idempotencyScope(request, 'POST /labels', request.body),
        () => deps.labels.prepareBatch(brandId, refs, options),
        async (tx, prepared) => {
          printed = await deps.labels.recordPrint(prepared, tx ?? undefined);
          // The document is not kept (up to 1,000 pages): a replay prints the same orders again.
          return { statusCode: 200, body: { ok: true, filename: printed.filename, labels: printed.labels } };
        },
      );
      markReplayed(reply, result);
      // A reprint records nothing and sends no event: the first print was recorded with the key.
      const document = printed ?? (await deps.labels.printBatch(brandId, refs, options));
      return send(reply, document, document.contentType === 'application/pdf' ? 'inline' : 'attachment');
    },
  );
}
