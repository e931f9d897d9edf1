import type { FastifyReply } from 'fastify';

/**
 * Sends JSON text produced elsewhere (stored with an order, or built once by the route) as it is:
 * a string or a buffer payload with a JSON content type skips the response serializer. Routes pass
 * their typed reply, which expects the object its schema describes, hence the loose parameter; the
 * fuzz suite checks every such body against the declared schema.
 */
export function sendJsonText(
  reply: { type(contentType: string): FastifyReply },
  json: string | Buffer,
): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(json);
}
