/**
 * What the console reads beside the services (issue 39): its exceptions queue, its order search and
 * the month's invoices across brands. Read models only: every change goes through the services.
 */

interface FailedAttemptException {
  trackingRef: string;
  brandName: string;
  reason: string | null;
  since: Date;
}

interface MissingParcelsException {
  pickupId: string;
  brandName: string;
  date: string;
  missingRefs: string[];
}

interface FlaggedAddressException {
  trackingRef: string;
  brandName: string;
  /** The address checks' warning codes (never the address itself). */
  warnings: string[];
}

interface BouncedNotificationException {
  /** The notification to resend. */
  notificationId: string;
  trackingRef: string;
  channel: string;
  step: string;
  detail: string | null;
  at: Date;
}

interface FailingWebhookException {
  endpointId: string;
  brandId: string;
  brandName: string;
  url: string;
  status: string;
  since: Date | null;
  reason: string | null;
}

/**
 * A shop link whose last sync failed, which the shop refused (broken), or which was disconnected
 * from the shop's side (uninstalled) in the last 7 days; never a link disconnected on purpose.
 */
interface ShopLinkException {
  connectionId: string;
  brandId: string;
  brandName: string;
  platform: string;
  shop: string;
  status: string;
  /** Why: the last sync's error, or the status's reason. */
  reason: string | null;
  /** Its open sync problems (orders it could not take, statuses it could not send). */
  problems: number;
  since: Date;
}

interface Exceptions {
  failedAttempts: FailedAttemptException[];
  missingParcels: MissingParcelsException[];
  flaggedAddresses: FlaggedAddressException[];
  bouncedNotifications: BouncedNotificationException[];
  failingWebhooks: FailingWebhookException[];
  shopLinks: ShopLinkException[];
}

/** An order found by a search: what identifies it, never its recipient's data. */
export interface FoundOrder {
  trackingRef: string;
  brandName: string;
  reference: string | null;
  status: string;
  createdAt: Date;
}

export type SearchKind = 'tracking_ref' | 'email' | 'phone' | 'brand_reference';

interface MonthInvoice {
  id: string;
  brandId: string;
  brandName: string;
  number: string | null;
  type: 'invoice' | 'credit_note';
  status: string;
  totalCents: number;
  issuedAt: Date | null;
  /** A credit note's invoice number. */
  credits: string | null;
}

export interface ConsoleReads {
  /** Each list bounded (the newest first): a queue to work through, not a report. */
  exceptions(today: string, limit: number): Promise<Exceptions>;
  search(kind: SearchKind, value: string, limit: number): Promise<FoundOrder[]>;
  monthInvoices(period: string): Promise<MonthInvoice[]>;
}
