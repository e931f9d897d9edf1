import type { FastifyBaseLogger } from 'fastify';
import { pino } from 'pino';
import { loggerOptions } from '../http/shared/logging.ts';

/**
 * The JSON logger of a process without an API (migrate; the worker before its probe server): the
 * same pino, settings and redaction as the API's, so every process writes the same lines. Pino
 * itself, not a Fastify instance's: loading Fastify (and its validator and serializer compilers)
 * cost a fresh worker about 0.1 s before its first job.
 */
export function processLogger(level: string): FastifyBaseLogger {
  const options = loggerOptions(level) as pino.LoggerOptions & { stream?: pino.DestinationStream };
  const { stream, ...settings } = options;
  return (stream ? pino(settings, stream) : pino(settings)) as FastifyBaseLogger;
}

/** graphile-worker's levels in pino's words. */
export function pinoLevel(level: string): 'error' | 'warn' | 'info' | 'debug' {
  return level === 'error' ? 'error' : level === 'warning' ? 'warn' : level === 'info' ? 'info' : 'debug';
}
