import { AppError } from '../../errors.ts';
import type { Outbox } from '../../events/outbox.ts';
import type { Locale } from '../../i18n/locales.ts';
import { parisToday } from '../calendar/paris-time.ts';
import { prefixedId } from '../ids.ts';
import type { OrderWithEvents } from '../orders/order.ts';
import { type OrderLinks, orderJson } from '../orders/order-json.ts';
import { TRACKING_TOKEN_PATTERN } from '../orders/tracking-ref.ts';
import type { Clock } from '../shared/clock.ts';
import type { UnitOfWork } from '../shared/stores.ts';
import { codeEmail, codeSms } from './code-message.ts';
import {
  type CheckedChoices,
  type ChoiceInput,
  checkChoices,
  daysOffered,
  isOpenForChanges,
} from './delivery-choices.ts';
import {
  CODE_TRIES,
  CODE_TTL_MS,
  CODES_PER_DAY,
  codeDigest,
  newCode,
  sameDigest,
  typedCode,
} from './one-time-codes.ts';
import type { Channel, RecipientChoices, RecipientMailer, SmsSender } from './ports.ts';
import type { RecipientDataSealer } from './recipient-data-sealer.ts';
import type { SealedChoices, SelfServiceStores } from './self-service-ports.ts';
import { SelfServiceRefusal } from './self-service-refusal.ts';

/** What the page may show before a code: no name, no address, no digit of a phone number. */
interface SelfServiceDoor {
  orderId: number;
  /** Whose look the pages take (its logo and colour). */
  brandId: string;
  brandName: string;
  trackingRef: string;
  open: boolean;
  /** The channels a code can be sent by: the order has that address and the channel is wired. */
  channels: Channel[];
}

/** What the form shows once the code was entered. */
interface SelfServiceForm {
  orderId: number;
  brandId: string;
  brandName: string;
  trackingRef: string;
  open: boolean;
  promisedDate: string | null;
  days: string[];
  choices: RecipientChoices;
}

export interface SelfService {
  /** The order behind the tracking token, for the first step; `not_found` as the tracking page. */
  door(token: string): Promise<SelfServiceDoor>;
  /** Sends a new 6-digit code by `channel`, in `locale` (the page's language). */
  sendCode(token: string, channel: Channel, locale: Locale): Promise<void>;
  /** Checks the code typed; resolves with the order's id when it is the right one (the code is then used). */
  verifyCode(token: string, typed: string): Promise<number>;
  form(token: string): Promise<SelfServiceForm>;
  /** Stores the choices, and moves the day, all or nothing; says whether the day moved. */
  change(token: string, input: ChoiceInput): Promise<{ rescheduled: boolean }>;
  /**
   * The choices in clear, for the courier of the delivery (their day's stops only: the caller's
   * job) and the operator's rounds; never for a brand.
   */
  choicesForCourier(orderIds: readonly (number | string)[]): Promise<Map<string, RecipientChoices>>;
}

export interface SelfServiceDeps {
  transact: UnitOfWork<SelfServiceStores>;
  /** The same stores on the pool, for reads outside a transaction. */
  stores: SelfServiceStores;
  outbox: Pick<Outbox, 'jobsFor' | 'eventWith'>;
  links: OrderLinks;
  clock: Clock;
  /** The key of the codes' digests (server secret `recipient_code_key`). */
  codeKey: () => Promise<Buffer>;
  sealer: RecipientDataSealer;
  /** The e-mail sender of recipients' messages; null: no code by e-mail. */
  mailer: RecipientMailer | null;
  /** The SMS sender and the service's number; null: no code by SMS. */
  sms: { sender: SmsSender; from: string } | null;
}

const emailOf = (order: OrderWithEvents) => order.deliveryEmail ?? order.customerEmail ?? null;

export function selfService(deps: SelfServiceDeps): SelfService {
  const { transact, stores, clock, sealer } = deps;
  let codeKey: Promise<Buffer> | null = null;
  const keyNow = () => {
    codeKey ??= deps.codeKey();
    codeKey.catch(() => {
      codeKey = null;
    });
    return codeKey;
  };

  async function find(token: string) {
    // A malformed token is answered like an unknown one, without a query (as the tracking page).
    const found = TRACKING_TOKEN_PATTERN.test(token) ? await stores.orders.findByTrackingToken(token) : null;
    if (!found) throw new AppError('not_found', 'No such tracking link.');
    return found;
  }

  function channelsOf(order: OrderWithEvents): Channel[] {
    const channels: Channel[] = [];
    if (deps.sms && order.deliveryPhone) channels.push('sms');
    if (deps.mailer && emailOf(order)) channels.push('email');
    return channels;
  }

  async function openChoices(orderId: number, sealed: SealedChoices | undefined): Promise<RecipientChoices> {
    if (!sealed) return { instructions: null, safePlace: null };
    return {
      instructions: sealed.instructionsSealed ? await sealer.open(sealed.instructionsSealed, orderId) : null,
      safePlace: sealed.safePlace
        ? {
            kind: sealed.safePlace,
            detail: sealed.safePlaceSealed ? await sealer.open(sealed.safePlaceSealed, orderId) : null,
          }
        : null,
    };
  }

  async function sealChoices(orderId: number, choices: CheckedChoices): Promise<SealedChoices> {
    return {
      instructionsSealed: choices.instructions ? await sealer.seal(choices.instructions, orderId) : null,
      safePlace: choices.safePlace?.kind ?? null,
      safePlaceSealed: choices.safePlace?.detail
        ? await sealer.seal(choices.safePlace.detail, orderId)
        : null,
    };
  }

  return {
    async door(token) {
      const { order, brandName } = await find(token);
      return {
        orderId: order.id,
        brandId: order.brandId,
        brandName,
        trackingRef: order.trackingRef,
        open: isOpenForChanges(order.status),
        channels: channelsOf(order),
      };
    },

    async sendCode(token, channel, locale) {
      const { order, brandName } = await find(token);
      if (!channelsOf(order).includes(channel)) throw new SelfServiceRefusal('no_address');
      const code = newCode();
      const codeId = prefixedId('rcd');
      const notificationId = prefixedId('ntf');
      const key = await keyNow();
      const now = clock();
      await transact(async (tx) => {
        const locked = await tx.selfService.lockOrder(order.id);
        if (!locked || !isOpenForChanges(locked.status)) throw new SelfServiceRefusal('not_open');
        if ((await tx.selfService.codesSentOn(order.id, parisToday(now))) >= CODES_PER_DAY)
          throw new SelfServiceRefusal('daily_limit');
        await tx.selfService.insertCode({
          id: codeId,
          orderId: order.id,
          channel,
          codeHash: codeDigest(key, codeId, code),
          attempts: 0,
          expiresAt: new Date(now.getTime() + CODE_TTL_MS),
          createdAt: now,
        });
        // Recorded before sending, like every recipient message: a send that dies half-way is seen.
        await tx.selfService.recordCodeNotification({
          id: notificationId,
          orderId: order.id,
          channel,
          status: 'sending',
          at: now,
        });
      });
      try {
        let providerId: string;
        if (channel === 'email') {
          const mail = codeEmail(locale, emailOf(order)!, brandName, code);
          providerId = (await deps.mailer!.send({ ...mail, fromName: brandName })).messageId;
        } else {
          const text = codeSms(locale, brandName, code);
          providerId = (await deps.sms!.sender.send({ to: order.deliveryPhone!, from: deps.sms!.from, text }))
            .providerId;
        }
        await stores.selfService.settleCodeNotification(notificationId, {
          status: 'sent',
          detail: null,
          providerId: providerId || null,
          at: clock(),
        });
      } catch (err) {
        // The provider's words (never the code: it is not in the error of a refused send).
        const detail = (err instanceof Error ? err.message : String(err)).slice(0, 500);
        await stores.selfService.settleCodeNotification(notificationId, {
          status: 'failed',
          detail,
          providerId: null,
          at: clock(),
        });
        throw new SelfServiceRefusal('send_failed');
      }
    },

    async verifyCode(token, typed) {
      const { order } = await find(token);
      const code = typedCode(typed);
      const key = await keyNow();
      const now = clock();
      // The wrong try is counted and committed before the refusal is thrown.
      const outcome = await transact(async (tx) => {
        const locked = await tx.selfService.lockOrder(order.id);
        if (!locked || !isOpenForChanges(locked.status)) return new SelfServiceRefusal('not_open');
        const stored = await tx.selfService.latestUnusedCode(order.id);
        if (!stored) return new SelfServiceRefusal('no_code');
        if (stored.attempts >= CODE_TRIES) return new SelfServiceRefusal('code_burnt');
        if (stored.expiresAt.getTime() <= now.getTime()) return new SelfServiceRefusal('code_expired');
        if (code !== null && sameDigest(codeDigest(key, stored.id, code), stored.codeHash)) {
          await tx.selfService.markUsed(stored.id, now);
          return null;
        }
        const attempts = await tx.selfService.recordWrongTry(stored.id);
        return attempts >= CODE_TRIES
          ? new SelfServiceRefusal('code_burnt')
          : new SelfServiceRefusal('wrong_code', CODE_TRIES - attempts);
      });
      if (outcome) throw outcome;
      return order.id;
    },

    async form(token) {
      const { order, brandName } = await find(token);
      const sealed = (await stores.selfService.choicesOf([order.id])).get(String(order.id));
      return {
        orderId: order.id,
        brandId: order.brandId,
        brandName,
        trackingRef: order.trackingRef,
        open: isOpenForChanges(order.status),
        promisedDate: order.promisedDate,
        days: daysOffered(order.promisedDate, parisToday(clock())),
        choices: await openChoices(order.id, sealed),
      };
    },

    async change(token, input) {
      const { order } = await find(token);
      if (!isOpenForChanges(order.status)) throw new SelfServiceRefusal('not_open');
      const now = clock();
      const today = parisToday(now);
      // Every field checked at once before anything is written; the day again once the row is locked.
      const checked = checkChoices(input, daysOffered(order.promisedDate, today));
      const sealed = await sealChoices(order.id, checked);
      // Read before the transaction: a connection it holds never waits for another from the pool.
      const listeners = checked.date ? await deps.outbox.jobsFor(order.brandId, 'order.rescheduled') : [];
      return transact(async (tx) => {
        const locked = await tx.selfService.lockOrder(order.id);
        // A courier's scan that got there first wins: the parcel is on its way, nothing is changed.
        if (!locked || !isOpenForChanges(locked.status)) throw new SelfServiceRefusal('not_open');
        checkChoices(input, daysOffered(locked.promisedDate, today));
        await tx.selfService.saveChoices(order.id, sealed, now);
        const previous = locked.promisedDate;
        if (!checked.date || checked.date === previous) return { rescheduled: false };
        const updated = await tx.orders.updateDetails(order.id, {
          status: locked.status,
          note: `Delivery day moved from ${previous ?? 'none'} to ${checked.date} by the recipient`,
          at: now,
          set: { promisedDate: checked.date },
        });
        if (!updated) throw new SelfServiceRefusal('not_open');
        // Its stops on other days' rounds, not scanned yet, are dropped: the new day's planning takes it.
        await tx.rounds.removeUnscannedStops(order.id, { keep: checked.date, from: today });
        const event = deps.outbox.eventWith(listeners, order.brandId, 'order.rescheduled', now, () => ({
          order: orderJson(updated, deps.links),
          previous_promised_date: previous,
          changed_by: 'recipient' as const,
        }));
        if (event) await tx.outbox.append(event);
        return { rescheduled: true };
      });
    },

    async choicesForCourier(orderIds) {
      const sealed = await stores.selfService.choicesOf(orderIds);
      const clear = new Map<string, RecipientChoices>();
      for (const [id, choices] of sealed) clear.set(id, await openChoices(Number(id), choices));
      return clear;
    },
  };
}
