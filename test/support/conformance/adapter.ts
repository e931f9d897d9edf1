import type { Platform } from '../../../src/connectors/connection.ts';
import type { TestApp } from '../app.ts';

/** How a request reaches the receiver: signed as the shop signs it, signed with another secret, or not at all. */
type Signature = 'valid' | 'forged' | 'missing';

/**
 * What the connector conformance suite (test/connector-conformance.test.ts) needs of a platform:
 * the real service with its worker, a fake shop of the platform linked to a brand, and how to act
 * as that shop. A new platform writes one of these (about a hundred lines) and gets the suite.
 */
export interface ShopUnderTest<O = unknown> {
  t: TestApp;
  brandId: string;
  connectionId: string;
  /** A new paid order in the shop; `ours: false` is shipped with a method of the shop's own. */
  newOrder(options?: { ours?: boolean }): O;
  /** The shop order's id as the connector stores it (`connector_orders.external_id`). */
  externalId(order: O): string;
  /** The shop sends the order to the receiver (webhook, push); resolves to the HTTP status. */
  send(order: O, signature?: Signature): Promise<number>;
  /** What the shop heard about the order from us, in the order it heard it (normalised by the adapter). */
  heard(order: O): string[];
  /** What the shop hears of a delivery order walked from `pending` to `delivered`. */
  walkHeard: string[];
  /** The shop unreachable (503), reachable again, or refusing our credentials (401). */
  setShop(mode: 'up' | 'down' | 'revoked'): void;
  /** The job that sends an order's moves to the shop. */
  syncJob: string;
  close(): Promise<void>;
}

export interface ConformanceAdapter {
  platform: Platform;
  start(): Promise<ShopUnderTest>;
}
