import path from 'node:path';
import { DEFAULT_SELLER, formatSiren, frenchVatKey, type SellerIdentity } from './domain/invoices/seller.ts';

/**
 * Every setting of the service, read from the environment once at start-up and passed down.
 * Nothing else in the code base reads process.env, so tests build a Config by hand.
 */
export interface Config {
  port: number;
  host: string;
  /** When null, an embedded PostgreSQL is started in `dataDir`. */
  databaseUrl: string | null;
  dataDir: string;
  redisUrl: string | null;
  rateLimitPerSecond: number;
  rateLimitBurst: number;
  opsToken: string | null;
  logLevel: string;
  publicBaseUrl: string | null;
  /** How long a verified API key is trusted from memory; bounded so revocations apply within 5 s. */
  authCacheTtlMs: number;
  webhooksAllowInsecure: boolean;
  /** Runs the job worker inside the API process (the default for `npm start`). */
  runWorker: boolean;
  /**
   * Keys the lists' cursors (CURSOR_SECRET); null: a key generated once and kept in the database.
   * Every instance must have the same, or a cursor from one is refused by another.
   */
  cursorSecret: string | null;
  /** The issuer printed on invoices; the placeholder until SELLER_* are set. */
  seller: Readonly<SellerIdentity>;
  sellerIsPlaceholder: boolean;
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(`${name} must be an integer, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(`${name} must be between ${min} and ${max}`);
  return value;
}

function str(env: Env, name: string): string | null {
  const raw = env[name]?.trim();
  return raw ? raw : null;
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = str(env, name);
  if (raw === null) return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw.toLowerCase())) return true;
  if (['0', 'false', 'no', 'off'].includes(raw.toLowerCase())) return false;
  throw new ConfigError(`${name} must be a boolean (1/0, true/false), got "${raw}"`);
}

const SELLER_REQUIRED = ['SELLER_NAME', 'SELLER_ADDRESS', 'SELLER_SIREN', 'SELLER_VAT_NUMBER'] as const;

/**
 * The company issuing the invoices. All of SELLER_NAME, SELLER_ADDRESS (lines separated by "|"),
 * SELLER_SIREN and SELLER_VAT_NUMBER, or none (the placeholder): a French invoice without its
 * issuer's registration is not valid, so a half-configured seller refuses to start.
 */
function seller(env: Env): { seller: Readonly<SellerIdentity>; sellerIsPlaceholder: boolean } {
  const given = SELLER_REQUIRED.filter((name) => str(env, name) !== null);
  if (given.length === 0) return { seller: DEFAULT_SELLER, sellerIsPlaceholder: true };
  const missing = SELLER_REQUIRED.filter((name) => !given.includes(name));
  if (missing.length > 0)
    throw new ConfigError(`set all of ${SELLER_REQUIRED.join(', ')}; missing ${missing.join(', ')}`);
  const siren = str(env, 'SELLER_SIREN')!.replace(/\s/g, '');
  if (!/^\d{9}$/.test(siren)) throw new ConfigError('SELLER_SIREN must be 9 digits');
  const vatNumber = str(env, 'SELLER_VAT_NUMBER')!.replace(/\s/g, '').toUpperCase();
  if (vatNumber !== `FR${frenchVatKey(siren)}${siren}`) {
    throw new ConfigError(
      `SELLER_VAT_NUMBER must be the SIREN's French VAT number, FR${frenchVatKey(siren)}${siren}`,
    );
  }
  const address = str(env, 'SELLER_ADDRESS')!
    .split('|')
    .map((line) => line.trim())
    .filter(Boolean);
  const email = str(env, 'SELLER_EMAIL');
  return {
    seller: Object.freeze({
      name: str(env, 'SELLER_NAME')!,
      address,
      siren: formatSiren(siren),
      vatNumber,
      ...(email ? { email } : {}),
    }),
    sellerIsPlaceholder: false,
  };
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export function loadConfig(env: Env = process.env, cwd: string = process.cwd()): Config {
  const logLevel = str(env, 'LOG_LEVEL') ?? 'info';
  if (!LOG_LEVELS.includes(logLevel))
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  const publicBaseUrl = str(env, 'PUBLIC_BASE_URL');
  if (publicBaseUrl !== null && !/^https?:\/\/[^\s]+$/.test(publicBaseUrl)) {
    throw new ConfigError('PUBLIC_BASE_URL must be an http(s) URL');
  }
  const cursorSecret = str(env, 'CURSOR_SECRET');
  if (cursorSecret !== null && cursorSecret.length < 32) {
    throw new ConfigError('CURSOR_SECRET must be at least 32 characters (e.g. `openssl rand -hex 32`)');
  }
  return {
    port: int(env, 'PORT', 3000, 0, 65535),
    host: str(env, 'HOST') ?? '127.0.0.1',
    databaseUrl: str(env, 'DATABASE_URL'),
    dataDir: path.resolve(cwd, str(env, 'DATA_DIR') ?? 'data'),
    redisUrl: str(env, 'REDIS_URL'),
    rateLimitPerSecond: int(env, 'RATE_LIMIT_PER_SECOND', 50, 0, 1_000_000),
    rateLimitBurst: int(env, 'RATE_LIMIT_BURST', 100, 1, 1_000_000),
    opsToken: str(env, 'OPS_TOKEN'),
    logLevel,
    publicBaseUrl: publicBaseUrl?.replace(/\/+$/, '') ?? null,
    authCacheTtlMs: int(env, 'AUTH_CACHE_TTL_MS', 4000, 0, 4900),
    webhooksAllowInsecure: bool(env, 'WEBHOOKS_ALLOW_INSECURE', false),
    runWorker: bool(env, 'RUN_WORKER', true),
    cursorSecret,
    ...seller(env),
  };
}
