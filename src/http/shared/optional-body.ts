import type { FastifyReply, FastifyRequest } from 'fastify';

// Apart from validation.ts (the validator compiler): the schemas that use these are also read by
// processes that compile no schema (a worker serialising webhook payloads), which then need not
// load ajv at start-up.

/**
 * Marks the body schema of an operation that needs no body (schemas/shared.ts `NoBody`): the
 * OpenAPI document then says the body is optional. Its route reads a missing body as `{}`
 * (`absentBodyIsEmpty`), so a body sent is checked like any other: a field is a 400 there too
 * rather than silently dropped, and so is a body that is not an object (`null`).
 */
export const OPTIONAL_BODY = 'x-optional-body';

/** preValidation of a route whose body is `NoBody`: no body at all is the empty object. */
export function absentBodyIsEmpty(request: FastifyRequest, _reply: FastifyReply, done: () => void): void {
  if (request.body === undefined) request.body = {};
  done();
}
