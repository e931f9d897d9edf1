import { polledCache } from '../domain/shared/polled-cache.ts';
import type { Platform } from './connection.ts';

export interface ConnectorDirectoryStore {
  activeBrandOfShop(platform: Platform, shop: string): Promise<string | null>;
  hasActive(platform: Platform, brandId: string): Promise<boolean>;
  /** Changes whenever a link appears, is disconnected, breaks or changes brand (cache_versions). */
  version(): Promise<number>;
}

/**
 * Which brand an active shop belongs to (every rate request at checkout asks), and whether a brand
 * has an active link (every order change asks, for the outbox): answered from memory, dropped by
 * every instance within a poll when any link changes, and at once by the one that changed it.
 */
export function connectorDirectory(
  store: ConnectorDirectoryStore,
  options: { refreshEveryMs?: number } = {},
) {
  const cache = polledCache<string | null>({
    load: async (key) => {
      const [kind, platform, id] = key.split('|') as ['shop' | 'brand', Platform, string];
      if (kind === 'shop') return store.activeBrandOfShop(platform, id);
      return (await store.hasActive(platform, id)) ? id : null;
    },
    version: () => store.version(),
    refreshEveryMs: options.refreshEveryMs ?? 2000,
  });
  return {
    /** The brand of the shop's active link, or null (unknown, broken or disconnected shop). */
    brandOfShop: (platform: Platform, shop: string) => cache.get(`shop|${platform}|${shop}`),
    hasActiveLink(platform: Platform, brandId: string): boolean | Promise<boolean> {
      const value = cache.get(`brand|${platform}|${brandId}`);
      return value instanceof Promise ? value.then((v) => v !== null) : value !== null;
    },
    forget: () => cache.clear(),
    startWatching: cache.startWatching,
    stopWatching: cache.stopWatching,
  };
}

export type ConnectorDirectory = ReturnType<typeof connectorDirectory>;
