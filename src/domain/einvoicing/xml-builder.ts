import { createRequire } from 'node:module';

/**
 * xmlbuilder2, loaded on the first document built rather than at start-up: its ~130 modules cost
 * every process (a fresh worker with a webhook backlog, the CLI) ~150 ms for something only invoice
 * issuing and the e-invoicing platform's answers need. Synchronous, as `create` is.
 */
const require = createRequire(import.meta.url);
let loaded: typeof import('xmlbuilder2') | undefined;

export const createXml: typeof import('xmlbuilder2')['create'] = ((...args: unknown[]) => {
  loaded ??= require('xmlbuilder2') as typeof import('xmlbuilder2');
  return (loaded.create as (...a: unknown[]) => unknown)(...args);
}) as typeof import('xmlbuilder2')['create'];
