import type { EventType } from '../../events/catalogue.ts';
import { polledCache } from '../shared/polled-cache.ts';

export interface WebhookListenersStore {
  /** Event types any endpoint of the brand (active or disabled) is subscribed to. */
  subscribedTypes(brandId: string): Promise<string[]>;
  /** Changes whenever any endpoint is added, removed or changes its subscription. */
  subscriptionsVersion(): Promise<number>;
}

export interface WebhookListeners {
  listens(brandId: string, type: EventType): boolean | Promise<boolean>;
  /** After a change made here: no need to wait for the next poll. */
  forget(): void;
  startWatching(): Promise<void>;
  stopWatching(): void;
}

/**
 * Whether a brand's endpoints listen to an event type, answered from memory on the request path.
 * A disabled endpoint still listens: its events are kept so `dlv webhooks replay --since` can send
 * what it missed once it is enabled again.
 */
export function webhookListeners(
  store: WebhookListenersStore,
  options: { refreshEveryMs?: number } = {},
): WebhookListeners {
  const cache = polledCache<ReadonlySet<string>>({
    load: async (brandId) => new Set(await store.subscribedTypes(brandId)),
    version: () => store.subscriptionsVersion(),
    refreshEveryMs: options.refreshEveryMs ?? 2000,
  });
  return {
    listens(brandId: string, type: EventType): boolean | Promise<boolean> {
      const types = cache.get(brandId);
      return types instanceof Promise ? types.then((t) => t.has(type)) : types.has(type);
    },
    forget: () => cache.clear(),
    startWatching: cache.startWatching,
    stopWatching: cache.stopWatching,
  };
}
