/** What the shop connectors share: a brand's link to a shop, its health, and what could not be synced. */

export type Platform = 'shopify' | 'woocommerce' | 'prestashop';

/**
 * `active`: syncing. `broken`: the shop refused our credentials (token revoked…); nothing is sent
 * until the shop is linked again. `disconnected`: uninstalled or disconnected; credentials erased.
 */
export type ConnectionStatus = 'active' | 'broken' | 'disconnected';

/** `ours`: only orders shipped with one of our services; `all`: every order with a shipping address. */
export type OrderFilter = 'ours' | 'all';

export interface Connection {
  id: string;
  brandId: string;
  platform: Platform;
  shop: string;
  status: ConnectionStatus;
  statusReason: string | null;
  scopes: string;
  orderFilter: OrderFilter;
  notifyCustomer: boolean;
  remoteIds: RemoteIds;
  /** Shop statuses that make a delivery order besides the paid one (polled platforms). */
  extraStatuses: string[];
  /** The poll's high-water mark (platform-defined; WooCommerce: an ISO UTC date). */
  syncCursor: string | null;
  /** The last poll that reached the shop. */
  lastSyncedAt: Date | null;
  /** What went wrong since (shop unreachable, a webhook disabled…); null when healthy. */
  syncError: string | null;
  syncState: SyncState;
  createdAt: Date;
  updatedAt: Date;
  disconnectedAt: Date | null;
}

/** What we registered on the shop, to remove it on disconnect. */
export interface RemoteIds {
  webhookSubscriptions?: string[];
  carrierService?: string;
  /** The carrier service's name: Shopify reports its rates on orders under it (`source`). */
  carrierServiceName?: string;
}

/** What a bridge learnt about the shop and remembers; never a credential. */
export interface SyncState {
  /** WooCommerce: whether the Shipment Tracking extension answers (checked once). */
  shipmentTracking?: 'present' | 'absent';
  /** The last time a disabled shop webhook was found and reactivated. */
  webhooksReactivatedAt?: string;
  /** What was found and repaired then (a webhook disabled by the shop, one deleted). */
  webhookNotice?: string;
}

export type ProblemKind =
  | 'out_of_zone'
  | 'invalid_address'
  | 'unpriceable'
  | 'invalid_order'
  | 'not_cancellable'
  | 'sync_failed'
  | 'data_request';

export interface SyncProblem {
  id: string;
  connectionId: string;
  brandId: string;
  kind: ProblemKind;
  /** The shop's order (a gid for Shopify), or '' when the problem is not about one order. */
  externalId: string;
  /** What the merchant calls the order (`#1001`). */
  externalName: string | null;
  /** The English sentence (CLI, logs); the account area words `kind` and `details` instead. */
  message: string;
  details: ProblemDetails;
  createdAt: Date;
}

/**
 * What the account area needs to word a problem in the brand's language: `code` names the exact
 * case (a message key, `shops.problemText.<code>`, else the kind's); the other entries are its values.
 */
export type ProblemDetails = { code?: string } & Record<string, string>;

export const CONNECTION_ID_PATTERN = /^con_[0-9a-f]{16}$/;

/** The JSON the CLI prints and the account area can show: never any credential. */
export function connectionJson(c: Connection, problems?: number) {
  return {
    id: c.id,
    brand_id: c.brandId,
    platform: c.platform,
    shop: c.shop,
    status: c.status,
    status_reason: c.statusReason,
    order_filter: c.orderFilter,
    notify_customer: c.notifyCustomer,
    extra_statuses: c.extraStatuses,
    last_synced_at: c.lastSyncedAt?.toISOString() ?? null,
    sync_error: c.syncError,
    created_at: c.createdAt.toISOString(),
    disconnected_at: c.disconnectedAt?.toISOString() ?? null,
    ...(problems === undefined ? {} : { problems }),
  };
}

export function problemJson(p: SyncProblem) {
  return {
    id: p.id,
    connection_id: p.connectionId,
    brand_id: p.brandId,
    kind: p.kind,
    external_id: p.externalId || null,
    external_name: p.externalName,
    message: p.message,
    details: p.details,
    created_at: p.createdAt.toISOString(),
  };
}
