import Fastify, { type FastifyBaseLogger } from 'fastify';
import { loggerOptions } from '../http/shared/logging.ts';

/**
 * The JSON logger of a process without an API (migrate; the worker before its probe server): the
 * same pino, settings and redaction as the API's, so every process writes the same lines.
 */
export function processLogger(level: string): FastifyBaseLogger {
  return Fastify({ logger: loggerOptions(level) }).log;
}

/** graphile-worker's levels in pino's words. */
export function pinoLevel(level: string): 'error' | 'warn' | 'info' | 'debug' {
  return level === 'error' ? 'error' : level === 'warning' ? 'warn' : level === 'info' ? 'info' : 'debug';
}
