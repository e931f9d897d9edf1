import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { inject } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { type Config, loadConfig } from '../../src/config.ts';
import { createPool, type Pool } from '../../src/db/pool.ts';
import { type Clock, createDeps, type Deps } from '../../src/deps.ts';
import { SCOPES, type Scope } from '../../src/domain/api-keys/keys.ts';
import { testOperator } from './audit.ts';

export const API = '/public/v1';

export function testDatabaseUrl(): string {
  return inject('databaseUrl');
}

/**
 * What the apps of this test process write (mail and SMS drops, proof files): a directory of its
 * own, removed when it exits, never the checkout's `data/`.
 */
let dataDir: string | null = null;
function testDataDir(): string {
  if (!dataDir) {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'dlv-test-data-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    dataDir = dir;
  }
  return dataDir;
}

export function testConfig(overrides: Partial<Config> = {}): Config {
  // Rate limiting is off unless a test turns it on: many tests fire hundreds of requests with one key.
  return {
    ...loadConfig({
      DATABASE_URL: testDatabaseUrl(),
      DATA_DIR: testDataDir(),
      LOG_LEVEL: 'silent',
      RATE_LIMIT_PER_SECOND: '0',
    }),
    ...overrides,
  };
}

export interface TestApp {
  app: FastifyInstance;
  deps: Deps;
  pool: Pool;
  close(): Promise<void>;
}

export async function buildTestApp(
  options: {
    config?: Partial<Config>;
    clock?: Clock;
    extend?: (app: FastifyInstance) => void;
    poolSize?: number;
  } = {},
): Promise<TestApp> {
  const config = testConfig(options.config);
  const pool = createPool(config.databaseUrl!, options.poolSize ?? 10);
  const deps = createDeps(config, pool, options.clock);
  const app = await buildApp(deps);
  options.extend?.(app);
  await app.ready();
  return {
    app,
    deps,
    pool,
    async close() {
      await app.close();
      await pool.end();
    },
  };
}

export interface TestBrand {
  brandId: string;
  key: string;
  keyId: string;
  headers: { authorization: string };
}

let counter = 0;

/** The default pickup address of test brands: orders need one (given, or their brand's). */
export const TEST_PICKUP_ADDRESS = '1 rue de Rivoli 75001 Paris';

/**
 * What an e-invoice needs of its buyer (SIREN, a billing address with postcode and city): test
 * brands have it unless told `company: null`, so their months can be issued.
 */
export const TEST_COMPANY = {
  legalName: '',
  billingAddress: '3 rue de Rivoli\n75004 Paris',
  siren: '732829320',
  vatNumber: 'FR44732829320',
};

/**
 * A new brand with one key (all scopes unless told otherwise): each test owns its data. Its webhook
 * subscriptions are open (as the operator's `allow-webhooks` does) unless `webhooksAllowed: false`,
 * so that every route is reachable by the suites that walk them all.
 */
export async function createBrandWithKey(
  deps: Deps,
  options: {
    scopes?: readonly Scope[];
    name?: string;
    pickupAddress?: string | null;
    webhooksAllowed?: boolean;
    /** null: none (a brand that cannot be invoiced). */
    company?: typeof TEST_COMPANY | null;
  } = {},
): Promise<TestBrand> {
  const pickupAddress = options.pickupAddress === undefined ? TEST_PICKUP_ADDRESS : options.pickupAddress;
  const brand = await deps.brands.create(
    { name: options.name ?? `Test brand ${++counter}`, pickupAddress },
    testOperator,
  );
  if (options.company !== null) {
    await deps.brands.updateCompany(
      brand.id,
      {
        ...(options.company ?? TEST_COMPANY),
        pickupAddress: pickupAddress ?? '',
      },
      testOperator,
    );
  }
  if (options.webhooksAllowed !== false) await deps.brands.setWebhooksAllowed(brand.id, true, testOperator);
  const key = await deps.apiKeys.create(
    { brandId: brand.id, scopes: options.scopes ?? [...SCOPES] },
    testOperator,
  );
  return { brandId: brand.id, key: key.key, keyId: key.id, headers: { authorization: `Bearer ${key.key}` } };
}

/**
 * A test key (`dlv_test_…`, all scopes unless told otherwise) of a live brand made by
 * createBrandWithKey: its `brandId` is the brand's test twin, which holds what the key creates.
 */
export async function createTestKey(
  deps: Deps,
  live: Pick<TestBrand, 'brandId'>,
  scopes: readonly Scope[] = SCOPES,
): Promise<TestBrand> {
  const key = await deps.apiKeys.create({ brandId: live.brandId, scopes, test: true }, testOperator);
  return {
    brandId: key.brandId,
    key: key.key,
    keyId: key.id,
    headers: { authorization: `Bearer ${key.key}` },
  };
}

/** `app.inject` returning the parsed JSON body alongside the raw response. */
export async function call(
  app: FastifyInstance,
  options: InjectOptions,
): Promise<LightMyRequestResponse & { body: string; data: Record<string, any> }> {
  const response = await app.inject(options);
  let data: Record<string, any> = {};
  try {
    data = response.json();
  } catch {
    // not JSON (docs page, PDF): leave data empty
  }
  return Object.assign(response, { data });
}
