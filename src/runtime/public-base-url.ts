import { type Config, ConfigError } from '../config.ts';
import type { Queryable } from '../db/pool.ts';
import { serviceSettingsRepository } from '../db/repositories/service-settings-repository.ts';

/**
 * One public base URL for every process of a deployment (issue #36). The API serves pages under
 * PUBLIC_BASE_URL and records it in the database when it starts; `dlv` and the workers write the
 * same address into what they send (an event's `tracking_url`, an invitation's link, a recipient's
 * SMS) even when they are given no PUBLIC_BASE_URL themselves — an operator's shell often has only
 * DATABASE_URL. Without either, they never guess a loopback address, except on the embedded
 * database (development), whose server listens on HOST:PORT.
 */
const SETTING = 'public_base_url';

/** Called by an API process (modes api and all) once its database is ready. */
export async function recordPublicBaseUrl(
  db: Queryable,
  config: Pick<Config, 'publicBaseUrl'>,
): Promise<void> {
  if (config.publicBaseUrl !== null) await serviceSettingsRepository(db).set(SETTING, config.publicBaseUrl);
}

export interface ResolvedBaseUrl {
  /** null: none is known outside development (see `unknownPublicBaseUrl`). */
  url: string | null;
  /** Said once on stderr or in the log: this process's own PUBLIC_BASE_URL differs from the API's. */
  warning: string | null;
}

/** The recorded URL, or null (none yet, or a database whose migrations are not applied yet). */
async function recorded(db: Queryable) {
  try {
    return await serviceSettingsRepository(db).get(SETTING);
  } catch (err) {
    if ((err as { code?: unknown }).code === '42P01') return null; // service_settings not there yet
    throw err;
  }
}

/**
 * The base URL a process that serves no page writes into links: its own PUBLIC_BASE_URL, else the
 * API's recorded one, else on the embedded database the server's listen address; else null.
 */
export async function resolvePublicBaseUrl(
  db: Queryable,
  config: Pick<Config, 'publicBaseUrl' | 'host' | 'port'>,
  options: { embedded: boolean },
): Promise<ResolvedBaseUrl> {
  const api = await recorded(db);
  if (config.publicBaseUrl !== null) {
    const differs = api !== null && api.value !== config.publicBaseUrl;
    return {
      url: config.publicBaseUrl,
      warning: differs
        ? `PUBLIC_BASE_URL here (${config.publicBaseUrl}) differs from the API's (${api.value}, recorded ${api.updatedAt.toISOString()}): links written now use ${config.publicBaseUrl}.`
        : null,
    };
  }
  if (api !== null) return { url: api.value, warning: null };
  if (options.embedded) return { url: `http://${config.host}:${config.port}`, warning: null };
  return { url: null, warning: null };
}

/** Why `who` (`dlv`, `the worker`) will not run without a public base URL, and what to set. */
export function unknownPublicBaseUrl(who: string): ConfigError {
  return new ConfigError(
    `PUBLIC_BASE_URL is unknown: ${who} writes links (tracking pages, invitations, recipients' messages) to the address clients reach the service at, and guesses none outside development. Set PUBLIC_BASE_URL as on the API, or start the API with it once: it records it in the database for dlv and the workers.`,
  );
}
