import type { FastifyRequest } from 'fastify';

/** One text field of a form body: '' when absent, the first when repeated, cut to `max` characters. */
export function text(request: FastifyRequest, name: string, max = 1024): string {
  const value = (request.body as Record<string, unknown> | undefined)?.[name];
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? first.slice(0, max) : '';
}

/** Every value of a repeated field (checkboxes). */
export function list(request: FastifyRequest, name: string): string[] {
  const value = (request.body as Record<string, unknown> | undefined)?.[name];
  const values = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return values.filter((v): v is string => typeof v === 'string').slice(0, 20);
}

/** A query parameter (links in e-mails carry their token there). */
export function query(request: FastifyRequest, name: string, max = 200): string {
  const value = (request.query as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value.slice(0, max) : '';
}

/** The caller's address for the key history and the sign-in limits (X-Forwarded-For only from TRUST_PROXY's proxies). */
export const clientIp = (request: FastifyRequest): string => request.ip ?? 'unknown';
