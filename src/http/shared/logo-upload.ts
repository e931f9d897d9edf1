import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { MAX_LOGO_UPLOAD_BYTES } from '../../domain/recipients/logo.ts';
import { AppError } from '../../errors.ts';

/** The logo read from a multipart form: its bytes, or that it was larger than the limit. */
export type LogoUpload = { bytes: Buffer } | { tooLarge: true };

const uploads = new WeakMap<FastifyRequest, LogoUpload>();

/** The file of the request's logo form, once `readLogoForms` read it (undefined: none sent). */
export const logoUploadOf = (request: FastifyRequest): LogoUpload | undefined => uploads.get(request);

/**
 * Multipart for the logo form only, in the scope of the plugin that calls this (the account area
 * otherwise takes url-encoded forms): one file of at most 1 MB (`logo`) and one field (`_csrf`).
 * The body is read before validation, so the area's CSRF check (a preHandler) finds the form's
 * `_csrf` in `request.body` as in any form; the page puts that field first. `mayRead` runs first:
 * a request that may not upload is refused before its file is read.
 */
export async function readLogoForms(
  scope: FastifyInstance,
  mayRead: (request: FastifyRequest) => void,
): Promise<void> {
  await scope.register(fastifyMultipart, {
    limits: {
      files: 1,
      fileSize: MAX_LOGO_UPLOAD_BYTES,
      fields: 1,
      fieldSize: 200,
      fieldNameSize: 100,
      parts: 2,
      headerPairs: 20,
    },
  });
  scope.addHook('preValidation', async (request) => {
    if (!request.isMultipart()) return;
    mayRead(request);
    const fields: Record<string, string> = {};
    try {
      for await (const part of request.parts()) {
        if (part.type === 'file') {
          if (part.fieldname !== 'logo')
            throw new AppError('invalid_request', 'Unexpected file in the form.');
          uploads.set(request, { bytes: await part.toBuffer() });
        } else if (part.fieldname === '_csrf' && typeof part.value === 'string') {
          fields._csrf = part.value;
        }
      }
    } catch (err) {
      // Past the limit the reading stops: the form says the file is too large.
      if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
        uploads.set(request, { tooLarge: true });
      else if (err instanceof AppError) throw err;
      else throw new AppError('invalid_request', 'The form could not be read (malformed upload).');
    }
    request.body = fields;
  });
}
