import type { OutboxEvent } from '../../events/outbox.ts';
import type { SessionStore, ShopLinkStore, TeamInvitationStore, UserStore } from '../accounts/ports.ts';
import type { ApiKeyStore } from '../api-keys/ports.ts';
import type { AuditStore } from '../audit/ports.ts';
import type { BrandStore } from '../brands/ports.ts';
import type { CourierStore } from '../couriers/ports.ts';
import type { EInvoiceStore } from '../einvoicing/ports.ts';
import type { FleetStore } from '../fleet/ports.ts';
import type { CreditNoteStore, DocumentBuyerStore, InvoiceStore } from '../invoices/ports.ts';
import type { LabelPrintStore } from '../labels/ports.ts';
import type { OperatorStore, OpsTokenStore } from '../operators/ports.ts';
import type { OrderStore } from '../orders/ports.ts';
import type { PickupStore } from '../pickups/ports.ts';
import type { PriceGridStore } from '../pricing/ports.ts';
import type { RoundStore } from '../rounds/ports.ts';
import type { ScanStore } from '../scans/ports.ts';
import type { TestDataStore } from '../test-mode/ports.ts';
import type {
  WebhookDeliveryStore,
  WebhookRequestStore,
  WebhookStore,
  WebhookSubscriptionStore,
} from '../webhooks/ports.ts';

/** Events written in the caller's transaction, for the subscribers' jobs (events/outbox.ts). */
interface OutboxStore {
  append(...events: OutboxEvent[]): Promise<void>;
}

/**
 * What the domain needs of storage, on one connection: the pool, or a transaction's client. Each
 * area declares its stores in its `ports.ts`; db/stores.ts implements them (and adds the stores
 * only the connectors, the HTTP layer and the jobs use).
 */
export interface Stores {
  apiKeys: ApiKeyStore;
  /** The audit trail: an audited change writes its entry here, in its own transaction. */
  audit: AuditStore;
  brands: BrandStore;
  connections: ShopLinkStore;
  couriers: CourierStore;
  creditNotes: CreditNoteStore;
  documentBuyers: DocumentBuyerStore;
  einvoices: EInvoiceStore;
  /** Hubs, vehicles and couriers' shifts (issue 37). */
  fleet: FleetStore;
  invoices: InvoiceStore;
  labelPrints: LabelPrintStore;
  operators: OperatorStore;
  opsTokens: OpsTokenStore;
  orders: OrderStore;
  outbox: OutboxStore;
  pickups: PickupStore;
  priceGrids: PriceGridStore;
  rounds: RoundStore;
  scans: ScanStore;
  sessions: SessionStore;
  teamInvitations: TeamInvitationStore;
  /** A brand's test data, deleted from the account area (test mode). */
  testData: TestDataStore;
  users: UserStore;
  webhookDeliveries: WebhookDeliveryStore;
  webhooks: WebhookStore;
  webhookRequests: WebhookRequestStore;
  webhookSubscriptions: WebhookSubscriptionStore;
}

/**
 * The unit of work: runs `work` in one transaction, on stores bound to it, committed when it
 * resolves and rolled back when it throws. Services receive this instead of a pool, so the domain
 * never opens a connection.
 */
export type UnitOfWork<S> = <T>(work: (stores: S) => Promise<T>) => Promise<T>;

export type Transact = UnitOfWork<Stores>;
