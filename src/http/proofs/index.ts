import type { FastifyInstance } from 'fastify';
import type { ProofService } from '../../domain/proofs/proof-service.ts';
import { PROOFS_PATH } from '../../domain/proofs/proof-urls.ts';
import { AppError } from '../../errors.ts';
import { sendError } from '../shared/errors.ts';

export const PROOFS_PREFIX = PROOFS_PATH;

/** What the route uses. */
interface ProofFilesContext {
  proofs: Pick<ProofService, 'openFile'>;
}

/**
 * Proof-of-delivery files, only behind signed, expiring URLs (decision 0006). Not part of the API's
 * documents: the URLs come in order answers, webhooks and pages. Expired, forged, for another
 * attempt or kind, erased: one 404 with one body, so a caller learns nothing about which.
 */
export function proofFiles(deps: ProofFilesContext) {
  return async (app: FastifyInstance) => {
    app.get<{ Params: { attemptId: string; kind: string }; Querystring: Record<string, unknown> }>(
      '/:attemptId/:kind',
      { config: { auth: 'none' }, schema: { hide: true } },
      async (request, reply) => {
        const { attemptId, kind } = request.params;
        const found = await deps.proofs.openFile(attemptId, kind, request.query.expires, request.query.sig);
        if (!found)
          return sendError(reply, new AppError('not_found', 'No such file, or its link has expired.'));
        return (
          reply
            // Kept by the browser no longer than the link is valid, and never by a shared cache.
            .header('cache-control', `private, max-age=${found.secondsLeft}`)
            // The link is the credential: a brand may show the photo in its own back office.
            .header('cross-origin-resource-policy', 'cross-origin')
            .header('content-disposition', 'inline')
            .type(found.file.contentType)
            .send(found.file.bytes)
        );
      },
    );
  };
}
