import type { Config } from '../../config.ts';

// Apart from the public API's plugin (index.ts): the account area, the connectors' pages and the
// start-up banner print these, and importing the plugin would load every route, schema and the docs.

export const PUBLIC_PREFIX = '/public/v1';

export function publicServerUrl(deps: { config: Pick<Config, 'publicBaseUrl' | 'host' | 'port'> }): string {
  const base = deps.config.publicBaseUrl ?? `http://${deps.config.host}:${deps.config.port}`;
  return `${base}${PUBLIC_PREFIX}`;
}
