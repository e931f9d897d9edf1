import type { OutboxEvent } from '../../events/outbox.ts';
import type { OrderStore } from '../orders/ports.ts';
import type { OrderStatus } from '../orders/state-machine.ts';
import type { RoundStore } from '../rounds/ports.ts';
import type { Channel, RecipientChoices } from './ports.ts';

export type SafePlaceKind = NonNullable<RecipientChoices['safePlace']>['kind'];

/** A one-time code's row (table recipient_codes): never the code, only its digest. */
export interface StoredCode {
  id: string;
  channel: Channel;
  codeHash: Buffer;
  attempts: number;
  expiresAt: Date;
}

/** The choices as stored (table recipient_choices): the words sealed. */
export interface SealedChoices {
  instructionsSealed: Buffer | null;
  safePlace: SafePlaceKind | null;
  safePlaceSealed: Buffer | null;
}

/** What the self-service keeps (recipient_codes, recipient_choices, the code's notification row). */
export interface SelfServiceStore {
  /** The order's row locked for the rest of the transaction (a courier's scan waits, or wins first). */
  lockOrder(orderId: number): Promise<{ status: OrderStatus; promisedDate: string | null } | null>;
  /** Codes sent to the order on that Paris day (`YYYY-MM-DD`). */
  codesSentOn(orderId: number, parisDate: string): Promise<number>;
  /** Stores a new code; the order's earlier codes not used yet expire with it. */
  insertCode(code: StoredCode & { orderId: number; createdAt: Date }): Promise<void>;
  /** The order's newest code not yet used, locked: only the last code sent can be entered. */
  latestUnusedCode(orderId: number): Promise<StoredCode | null>;
  recordWrongTry(codeId: string): Promise<number>;
  markUsed(codeId: string, at: Date): Promise<void>;
  /** The code's send in recipient_notifications (step `code`, no event). */
  recordCodeNotification(row: {
    id: string;
    orderId: number;
    channel: Channel;
    status: 'sending';
    at: Date;
  }): Promise<void>;
  settleCodeNotification(
    id: string,
    outcome: { status: 'sent' | 'failed'; detail: string | null; providerId: string | null; at: Date },
  ): Promise<void>;
  choicesOf(orderIds: readonly (number | string)[]): Promise<Map<string, SealedChoices>>;
  saveChoices(orderId: number, choices: SealedChoices, at: Date): Promise<void>;
}

/** The stores a self-service transaction works on, bound to one connection. */
export interface SelfServiceStores {
  orders: Pick<OrderStore, 'updateDetails' | 'findByTrackingToken'>;
  selfService: SelfServiceStore;
  rounds: Pick<RoundStore, 'removeUnscannedStops'>;
  outbox: { append(...events: OutboxEvent[]): Promise<void> };
}
