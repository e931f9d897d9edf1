import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkDatabase } from '../chaos/harness.ts';
import {
  createTopologyBrand,
  startTopology,
  type Topology,
  type TopologyBrand,
} from '../support/topology.ts';
import { findBinary } from '../support/topology-infra.ts';
import { describeFailures, startClientLoad } from './client-load.ts';

/**
 * compose.yaml's topology behind the committed haproxy configuration, 20 clients creating and
 * reading orders through it, one API instance stopped with SIGTERM (as `docker compose stop`, a
 * rolling update or a node drain does): readiness fails at once, haproxy takes the instance out,
 * the instance answers what it has and exits. Not one client sees an error.
 */

const HAPROXY = findBinary('haproxy');
if (!HAPROXY) console.warn('[topology] skipped: haproxy is not installed (apt-get install -y haproxy)');

// What compose.yaml says, except: quieter logs, rate limits that never refuse (Redis still counts
// every request), and a shorter drain (haproxy's checks take it out within 1.5 s).
const OVERRIDES = {
  LOG_LEVEL: 'warn',
  RATE_LIMIT_PER_SECOND: '1000000',
  RATE_LIMIT_BURST: '1000000',
  SHUTDOWN_DRAIN_MS: '3000',
};

describe.skipIf(!HAPROXY)('topology: an API stopped with SIGTERM behind haproxy', () => {
  let topology: Topology;
  let brand: TopologyBrand & { close(): Promise<void> };

  beforeAll(async () => {
    topology = await startTopology({ overrides: OVERRIDES });
    console.log(`[topology] ${topology.summary}`);
    brand = await createTopologyBrand(topology.databaseUrl);
  });
  afterAll(async () => {
    await brand?.close();
    await topology?.close();
  });

  it('20 clients through haproxy while api-1 drains and exits: no failed request, every order exactly once', async () => {
    const load = startClientLoad(topology.base, brand, { concurrency: 20, prefix: 'sigterm' });
    let drained: { ms: number; code: number | null; signal: string | null; sawDown: boolean };
    try {
      await load.answered(300);
      const [api1] = topology.apis;
      const stoppedAt = Date.now();
      const exit = api1!.stop('SIGTERM');
      // haproxy must see it go (its /readyz fails) before it stops listening.
      const down = topology.waitForServer(api1!.name, 'DOWN', 60_000).then(
        () => true,
        () => false,
      );
      const status = await exit;
      drained = { ms: Date.now() - stoppedAt, ...status, sawDown: await down };
      // Traffic goes on through the remaining instance for a while.
      await load.answered(load.outcomes.length + 300);
    } finally {
      await load.stop();
    }
    const servers = await topology.servers();
    const failures = load.failures();
    const creations = load.outcomes.filter((o) => o.what === 'create').length;
    console.log(
      `[topology] sigterm: ${load.outcomes.length} requests (${creations} creations), ${failures.length} failed; ` +
        `api-1 exited ${drained.code ?? drained.signal} after ${drained.ms} ms; haproxy: ${JSON.stringify(servers)}`,
    );

    expect(failures, describeFailures(failures)).toEqual([]);
    expect(drained.code, topology.logs()).toBe(0);
    expect(drained.sawDown).toBe(true);
    // Each creation was answered once; the database holds exactly those orders, none twice.
    const db = await checkDatabase(topology.databaseUrl, brand.brandId);
    expect(db.duplicates).toBe(0);
    expect(db.orders).toBe(load.acknowledged.size);
    for (const [key, ref] of load.acknowledged) expect(db.refByReference.get(key), key).toBe(ref);
    // Both instances served, the stopped one until it went.
    expect(servers['api-1']!.sessions).toBeGreaterThan(0);
    expect(servers['api-2']!.sessions).toBeGreaterThan(0);
  });
});
