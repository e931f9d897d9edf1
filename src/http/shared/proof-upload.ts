import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ProofUploads } from '../../domain/proofs/proof-deliveries.ts';
import {
  MAX_PROOF_FILE_BYTES,
  PROOF_FILE_KINDS,
  type ProofFileKind,
} from '../../domain/proofs/proof-files.ts';
import { AppError, invalidField } from '../../errors.ts';
import { unstorableText } from './plugins/text-inputs.ts';

/** The scan's JSON as a form field: a few hundred bytes; 16 KiB leaves room and bounds the parse. */
const SCAN_FIELD_BYTES = 16 * 1024;

/**
 * Multipart for the proof uploads only, in the scope of the plugin that calls this (the rest of the
 * service keeps its JSON-only bodies): at most 2 files of 10 MB, one field, 3 parts in all.
 */
export async function registerProofMultipart(scope: FastifyInstance): Promise<void> {
  await scope.register(fastifyMultipart, {
    throwFileSizeLimit: true,
    limits: {
      files: 2,
      fileSize: MAX_PROOF_FILE_BYTES,
      fields: 1,
      fieldSize: SCAN_FIELD_BYTES,
      fieldNameSize: 100,
      parts: 3,
      headerPairs: 20,
    },
  });
}

const isKind = (name: string): name is ProofFileKind =>
  (PROOF_FILE_KINDS as readonly string[]).includes(name);

/**
 * Reads a delivery's multipart body: the `scan` field (its JSON) and the optional `photo` and
 * `signature` files, each held in memory (≤ 10 MB) until checked. Errors name the part: 400 for a
 * missing or malformed scan or an unknown part, 413 past a limit, 415 when not multipart.
 */
export async function readProofUpload(
  request: FastifyRequest,
): Promise<{ scan: unknown; files: ProofUploads }> {
  if (!request.isMultipart())
    throw new AppError(
      'unsupported_media_type',
      'Send multipart/form-data: a "scan" field (its JSON) and optional "photo" and "signature" files.',
    );
  const files: ProofUploads = {};
  let scanText: string | null = null;
  let current = 'body';
  try {
    for await (const part of request.parts()) {
      current = part.fieldname;
      if (part.type === 'file') {
        if (!isKind(part.fieldname)) {
          part.file.resume();
          throw invalidField(part.fieldname, 'is not a part of a delivery (scan, photo, signature)');
        }
        if (files[part.fieldname]) throw invalidField(part.fieldname, 'is sent twice');
        files[part.fieldname] = await part.toBuffer();
      } else {
        if (part.fieldname !== 'scan')
          throw invalidField(part.fieldname, 'is not a part of a delivery (scan, photo, signature)');
        if (part.valueTruncated) throw invalidField('scan', 'must be at most 16 KiB');
        scanText = String(part.value);
      }
    }
  } catch (err) {
    throw asAppError(err, current);
  }
  if (scanText === null) throw invalidField('scan', 'is required (the scan as JSON)');
  let scan: unknown;
  try {
    scan = JSON.parse(scanText);
  } catch {
    throw invalidField('scan', 'must be JSON');
  }
  const unstorable = unstorableText(scan, 'scan');
  if (unstorable) throw unstorable;
  return { scan, files };
}

function asAppError(err: unknown, part: string): unknown {
  const code = (err as { code?: string }).code;
  switch (code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return new AppError('payload_too_large', `${part}: the file is larger than 10 MB`, [
        { field: part, message: 'must be at most 10 MB' },
      ]);
    case 'FST_FILES_LIMIT':
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return new AppError(
        'payload_too_large',
        'A delivery has one "scan" field and at most two files ("photo", "signature").',
      );
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
    case 'FST_PROTO_VIOLATION':
      return new AppError('invalid_request', 'The multipart body is malformed.');
  }
  if (
    err instanceof Error &&
    !(err instanceof AppError) &&
    /multipart|boundary|Unexpected end/i.test(err.message)
  )
    return new AppError('invalid_request', 'The multipart body is malformed.');
  return err;
}
