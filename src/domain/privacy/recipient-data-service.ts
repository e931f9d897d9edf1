import { AppError, invalidField } from '../../errors.ts';
import { type Author, systemAuthor } from '../audit/actor.ts';
import type { AuditEntry } from '../audit/ports.ts';
import { normaliseEmail, parsePhone } from '../orders/order-input.ts';
import { TERMINAL_STATUSES } from '../orders/state-machine.ts';
import type { ObjectStore } from '../proofs/ports.ts';
import type { Clock } from '../shared/clock.ts';
import type { UnitOfWork } from '../shared/stores.ts';
import { pacedBatches } from './pacing.ts';
import type {
  ErasableOrder,
  ErasedCounts,
  PrivacyStores,
  RecipientDataStore,
  RecipientMatch,
} from './ports.ts';
import { RECIPIENT_DATA_SETTING, retentionCutoff } from './retention-periods.ts';

/** What an erasure did. */
export interface ErasureReport extends ErasedCounts {
  /** Proof files (photos, signatures) deleted from the object store. */
  files: number;
  at: Date;
  /** Who had it erased (`dlv recipients erase`, a person's request under GDPR art. 17): in the audit trail. */
  by: Author;
}

/** The trail's entry of an erasure: which orders, how much went, never whose data it was. */
function erased(
  by: Author,
  counts: ErasedCounts,
  files: number,
  onRequest: boolean,
  match?: 'email' | 'phone',
): AuditEntry {
  return {
    action: 'recipient.erased',
    by,
    object: { type: 'recipient', id: onRequest ? `request by ${match}` : 'retention' },
    orderRefs: counts.orders,
    details: {
      orders: counts.orders.length,
      files,
      attempts: counts.attempts,
      notifications: counts.notifications,
      codes: counts.codes,
      choices: counts.choices,
      problems: counts.problems,
      inbox_payloads: counts.inboxPayloads,
      idempotency_keys: counts.idempotencyKeys,
    },
  };
}

/** What a run of the retention did. */
interface AnonymisationRun {
  orders: number;
  files: number;
  /** False when the run stopped at its time budget with orders still due (the next run goes on). */
  finished: boolean;
}

export interface RecipientDataService {
  /**
   * Erases the recipient's data of every ended order last changed more than the retention ago
   * (RECIPIENT_DATA_RETENTION_DAYS), in batches; idempotent.
   */
  anonymiseExpired(): Promise<AnonymisationRun>;
  /**
   * Erases everything kept about the recipient with this e-mail address or this phone number, on
   * their request: every order naming them (as customer or delivery e-mail, or delivery phone),
   * with its notifications, proofs, self-service rows, shops' payloads and stored answers. Refused,
   * with nothing erased, while one of those orders is not finished: a parcel on its way needs them.
   * An opt-out is kept (it holds a digest, not the address, and must go on being honoured).
   */
  erase(request: { email?: string | null; phone?: string | null; by: Author }): Promise<ErasureReport>;
  /**
   * Stops every notification to this e-mail address or phone number, whatever the brand, on the
   * person's request (`dlv recipients opt-out`): kept as a digest, never undone by the service;
   * recorded in the audit trail without the address. Returns what was opted out, as stored.
   */
  optOut(request: { email?: string | null; phone?: string | null; by: Author }): Promise<{
    channel: 'email' | 'sms';
    address: string;
  }>;
}

/** The retention job's name, as the trail names it. */
const RETENTION_JOB = systemAuthor('recipient_data_anonymise');

export interface RecipientDataServiceDeps {
  store: RecipientDataStore;
  transact: UnitOfWork<PrivacyStores>;
  objects: ObjectStore;
  clock: Clock;
  /** RECIPIENT_DATA_RETENTION_DAYS. */
  days: number;
  batch?: number;
  budgetMs?: number;
  /** After each batch, a rest this many times as long as the batch took (pacing.ts; default 1). */
  pauseRatio?: number;
}

/**
 * A recipient's personal data (GDPR art. 5(1)(e) and 17; docs/security.md, "Personal data"): kept
 * while the delivery needs it and for the claims that may follow, then erased from the order and
 * everything copied from it; what invoices and statistics need stays (reference, dates, status,
 * price, service, postcode and city, the attempts' times and outcomes).
 */
export function recipientDataService(deps: RecipientDataServiceDeps): RecipientDataService {
  const { store, transact, objects, clock } = deps;
  const batch = deps.batch ?? 200;
  const budgetMs = deps.budgetMs ?? 120_000;
  const paced = pacedBatches(deps.pauseRatio);

  /** Deletes the orders' proof files (deleting a missing one is no error); the keys deleted. */
  async function deleteFiles(orders: readonly ErasableOrder[]): Promise<string[]> {
    const keys = orders.flatMap((o) => o.fileKeys);
    for (const key of keys) await objects.delete(key);
    return keys;
  }

  return {
    async anonymiseExpired() {
      const note = `Recipient's personal data erased: kept ${deps.days} days after the order ended (${RECIPIENT_DATA_SETTING})`;
      const deadline = performance.now() + budgetMs;
      const run: AnonymisationRun = { orders: 0, files: 0, finished: true };
      for (;;) {
        if (performance.now() >= deadline) {
          run.finished = false;
          return run;
        }
        const due = await store.dueForAnonymisation(retentionCutoff(clock(), deps.days), batch);
        if (due.length === 0) return run;
        // The files first, then the keys: a crash in between leaves keys whose files are gone,
        // which the next run deletes again (no error) and clears.
        const erasedKeys = await deleteFiles(due);
        const done = await paced(() =>
          transact(async (stores) => {
            const counts = await stores.recipientData.anonymise(
              due.map((o) => o.id),
              { at: clock(), note, erasedKeys, onRequest: false, skipLocked: true },
            );
            if (counts.orders.length > 0)
              await stores.audit.record(erased(RETENTION_JOB, counts, erasedKeys.length, false));
            return counts;
          }),
        );
        run.orders += done.orders.length;
        run.files += erasedKeys.length;
        // Every one held by another transaction: the next run takes them.
        if (due.length < batch || done.orders.length === 0) return run;
      }
    },

    async erase(request) {
      const match = recipientMatch(request.email ?? null, request.phone ?? null);
      const orders = await store.ordersOf(match);
      const moving = orders.filter((o) => !TERMINAL_STATUSES.includes(o.status));
      if (moving.length > 0) {
        const named = moving.slice(0, 10).map((o) => `${o.trackingRef} ${o.status}`);
        if (moving.length > 10) named.push('…');
        const count =
          moving.length === 1
            ? '1 order of this recipient is'
            : `${moving.length} orders of this recipient are`;
        throw new AppError(
          'invalid_transition',
          `Nothing erased: ${count} not finished (${named.join(', ')}). A parcel on its way needs its ` +
            "recipient's name, address and phone: erase again once it is delivered, returned or cancelled " +
            '(its brand may cancel an order not yet picked up).',
          moving.map((o) => ({ field: o.trackingRef, message: `is ${o.status}` })),
        );
      }
      const at = clock();
      // The files first, as the retention does: a failure after leaves keys the next erasure clears.
      const erasedKeys = await deleteFiles(orders);
      const counts = await transact(async (stores) => {
        const done = await stores.recipientData.anonymise(
          orders.map((o) => o.id),
          {
            at,
            note: "Recipient's personal data erased at their request",
            erasedKeys,
            onRequest: true,
            skipLocked: false,
          },
        );
        // Recorded whether or not an order held the data: the request was answered.
        await stores.audit.record(
          erased(request.by, done, erasedKeys.length, true, 'email' in match ? 'email' : 'phone'),
        );
        return done;
      });
      return { ...counts, files: erasedKeys.length, at, by: request.by };
    },

    async optOut(request) {
      const match = recipientMatch(request.email ?? null, request.phone ?? null);
      const [channel, address] =
        'email' in match ? (['email', match.email] as const) : (['sms', match.phone] as const);
      await transact(async (stores) => {
        await stores.optOuts.optOut(channel, address, 'operator');
        await stores.audit.record({
          action: 'recipient.opted_out',
          by: request.by,
          object: { type: 'recipient', id: `request by ${channel === 'email' ? 'email' : 'phone'}` },
          details: { channel },
        });
      });
      return { channel, address };
    },
  };
}

/** The e-mail address or the phone number an erasure names (exactly one), as orders store them. */
function recipientMatch(email: string | null, phone: string | null): RecipientMatch {
  if ((email === null) === (phone === null))
    throw invalidField('email', 'give an e-mail address or a phone number');
  if (email !== null) {
    const trimmed = email.trim();
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(trimmed) || trimmed.length > 254)
      throw invalidField('email', 'must be an e-mail address');
    return { email: normaliseEmail(trimmed)! };
  }
  let number: string | null;
  try {
    number = parsePhone(phone);
  } catch {
    number = null;
  }
  if (number === null)
    throw invalidField('phone', 'must be a valid phone number, e.g. "06 12 34 56 78" or "+33 6 12 34 56 78"');
  return { phone: number };
}
