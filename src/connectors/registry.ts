import type { Config } from '../config.ts';
import type { Platform } from './connection.ts';
import type { RemoteCleanup } from './connections-service.ts';
import type { Connector, ConnectorContext } from './connector.ts';
import { PRESTASHOP } from './prestashop/platform.ts';
import type { Resync } from './resync.ts';
import { SHOPIFY } from './shopify/platform.ts';
import { WOOCOMMERCE } from './woocommerce/platform.ts';

/** Every shop platform the service knows: adding one is its folder and one line here. */
export const CONNECTORS = [SHOPIFY, WOOCOMMERCE, PRESTASHOP] as const;

type Listed = (typeof CONNECTORS)[number];
/** Each platform's wired connector under its name; null when the deployment leaves it off. */
export type WiredConnectors = { [C in Listed as C['platform']]: ReturnType<C['create']> };

// biome-ignore lint/suspicious/noExplicitAny: the registry handles each platform's own wired type opaquely
type AnyConnector = Connector<any, Platform>;
const LIST: readonly AnyConnector[] = CONNECTORS;

/** A platform that is on: its definition and what `create` made. */
export interface ActiveConnector {
  definition: AnyConnector;
  instance: unknown;
}

/** The prefixes of the connectors' per-order job queues (`shopify:DLV-…`), whether they are on or not. */
export const ORDER_QUEUE_PREFIXES: readonly string[] = LIST.map((c) => c.syncBack.queuePrefix);

/** The platforms this deployment runs, in the registry's order. */
export const connectorsOn = (config: Config): readonly AnyConnector[] => LIST.filter((c) => c.isOn(config));

/** The platforms whose links take extra shop statuses (the connections service checks them). */
export const EXTRA_STATUSES = LIST.flatMap((c) =>
  c.extraStatuses ? [{ platform: c.platform, label: c.label, statuses: c.extraStatuses }] : [],
);

/** Every connector's jobs (src/jobs/index.ts adds them to the worker's task list). */
export const CONNECTOR_JOBS = LIST.flatMap((c) => c.jobs);

/**
 * Each platform wired once from `ctx` (src/deps.ts). The connections service (which unlinks through
 * the connectors) is made before them: its hooks reach them through `remoteCleanup`, read when a
 * brand disconnects.
 */
export interface WiredRegistry {
  /** `deps.<platform>`: each platform's connector for the jobs, the CLI and the account area. */
  byPlatform: WiredConnectors;
  /** The platforms that are on, in the registry's order. */
  active: ActiveConnector[];
  /** `dlv connectors resync`: the platforms that can read their orders back. */
  resyncers: Partial<Record<Platform, Resync>>;
}

export function wireConnectors(ctx: ConnectorContext): WiredRegistry {
  const wired = LIST.map((definition) => ({ definition, instance: definition.create(ctx) as unknown }));
  const instanceOf = (platform: Platform) => wired.find((w) => w.definition.platform === platform)?.instance;
  return {
    byPlatform: Object.fromEntries(wired.map((w) => [w.definition.platform, w.instance])) as WiredConnectors,
    active: wired.filter((w) => w.definition.isOn(ctx.config) && w.instance !== null) as ActiveConnector[],
    resyncers: Object.fromEntries(
      LIST.flatMap((c) => (c.resync ? [[c.platform, c.resync(instanceOf(c.platform))]] : [])),
    ) as Partial<Record<Platform, Resync>>,
  };
}

/** What each platform removes from the shop on disconnect, for the connections service (made first). */
export function remoteCleanups(
  instances: () => Partial<Record<Platform, unknown>>,
): Partial<Record<Platform, RemoteCleanup>> {
  return Object.fromEntries(
    LIST.flatMap((c) => {
      const unlink = c.unlink;
      if (!unlink) return [];
      const cleanup: RemoteCleanup = (connection, token) =>
        unlink(instances()[c.platform] ?? null)(connection, token);
      return [[c.platform, cleanup]];
    }),
  );
}
