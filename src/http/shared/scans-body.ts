import type { FastifyRequest } from 'fastify';
import { checkScans } from '../../domain/scans/scan-input.ts';
import { AppError } from '../../errors.ts';
import { toAppError } from './errors.ts';

/** `scans.3.happened_at` (the schema validator's path) as `scans[3].happened_at`. */
const indexed = (field: string) => field.replace(/\.(\d+)(?=\.|$)/g, '[$1]');

/**
 * The body of a scans route (attachValidation): the scans' own checks first, naming
 * `scans[3].happened_at` as a courier app's developer reads it, then the schema's other errors,
 * named the same way.
 */
export function scansBody<B extends { scans: unknown }>(request: FastifyRequest & { body: B }): B {
  const invalid = request.validationError;
  if (invalid) {
    checkScans((request.body as { scans?: unknown } | null)?.scans);
    const err = toAppError(Object.assign(invalid, { validationContext: 'body' }));
    const details = (err.details ?? []).map((d) => ({ field: indexed(d.field), message: d.message }));
    throw new AppError(err.code, indexed(err.message), details);
  }
  return request.body;
}
