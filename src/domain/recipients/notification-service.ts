import { AppError, invalidField } from '../../errors.ts';
import type { Locale } from '../../i18n/locales.ts';
import { validateEmail } from '../accounts/user.ts';
import type { Author } from '../audit/actor.ts';
import type { AuditStore } from '../audit/ports.ts';
import { parsePhone } from '../orders/order-input.ts';
import type { DeliveryWindow } from './delivery-window.ts';
import type {
  NotificationFacts,
  NotificationStore,
  NotifiedOrder,
  RecipientNotification,
  SkipReason,
} from './notification-ports.ts';
import { announcedWindow, NOTIFYING_EVENT_TYPES, stepOf } from './notification-step.ts';
import {
  CHANNELS,
  type Channel,
  MailError,
  type NotificationStep,
  type OptOuts,
  type RecipientMailer,
  type RecipientSettings,
  type RecipientSettingsRepository,
  SmsError,
  type SmsSender,
} from './ports.ts';
import { recipientEmail, recipientSms } from './recipient-messages.ts';
import type { UnsubscribeTokens } from './unsubscribe-token.ts';

/** A brand's "does anyone get told" answer is kept this long: settings changed elsewhere show within it. */
const LISTENS_TTL_MS = 10_000;

export interface NotificationServiceDeps {
  settings: Pick<RecipientSettingsRepository, 'get' | 'logo'>;
  store: NotificationStore;
  facts: NotificationFacts;
  optOuts: OptOuts;
  mailer: RecipientMailer;
  sms: SmsSender;
  /**
   * Where a test order's messages go (test mode): the development outbox, never SMTP nor the SMS
   * provider, whatever the configuration. Absent: they are not sent at all.
   */
  testOutbox?: { mailer: RecipientMailer; sms: SmsSender };
  tokens: Pick<UnsubscribeTokens, 'tokenFor'>;
  /** PUBLIC_BASE_URL (or the listen address): the links in the messages. */
  baseUrl: string;
  carrierName: string;
  /** The service's number (SMS_FROM), so a recipient can answer STOP. */
  smsFrom: string | null;
  /** Monotonic milliseconds for the cache (real time, whatever clock the rules use). */
  now?: () => number;
  /**
   * The order's arrival window on its round (domain/arrivals), null when its round has not left
   * (or it is on none): "out for delivery" then says the day only.
   */
  arrivalWindow?: (orderId: number) => Promise<DeliveryWindow | null>;
  /** Where an operator's resend is recorded (`notification.resent`). */
  audit: Pick<AuditStore, 'record'>;
}

export interface RecipientNotifications {
  /**
   * The outbox's question (decision 0007): whether a brand's event may tell its recipients
   * anything; false when every step it could mean is off or the brand's shop tells its customers
   * itself, so nothing is written for it. Cached for at most 10 s.
   */
  listens(brandId: string, type: string): Promise<boolean>;
  /** The brand's settings changed in this process: asked afresh next time. */
  forget(brandId: string): void;
  /**
   * The `notify-recipient` job for one event: per channel, one row decided and recorded before
   * sending, then sent, failed or skipped. Safe to run again: a decided row is left as it is, a
   * row still `sending` (the send failed and threw) is sent now. Throws on a transient failure
   * (SMTP, an SMS provider throttled or down) so the queue retries; `lastAttempt` records it failed.
   */
  notify(eventId: string, options?: { lastAttempt?: boolean }): Promise<string>;
  /** The messages decided for an order (account area, CLI), oldest first. */
  ofOrder(orderId: number): Promise<RecipientNotification[]>;
  /**
   * An operator's resend of a bounced message (the console's Exceptions): the same step's message,
   * to the order's address or to `to`, a corrected one for this message (an e-mail for an e-mail,
   * a phone number for a text). Refused unless it failed, and for an opted-out address. Recorded
   * in the audit trail (`notification.resent`, never the address) with what became of it.
   */
  resend(id: string, input: { to: string | null }, by: Author): Promise<ResendOutcome>;
}

interface ResendOutcome {
  trackingRef: string;
  channel: Channel;
  status: 'sent' | 'failed';
  detail: string | null;
}

function addressOf(order: NotifiedOrder, channel: Channel): string | null {
  if (channel === 'sms') return order.deliveryPhone;
  return order.deliveryEmail ?? order.customerEmail;
}

/** The e-mail rule of the accounts, its 400 naming the console's field. */
function validateEmailFor(field: string, value: string): string {
  try {
    return validateEmail(value);
  } catch {
    throw invalidField(field, 'must be an e-mail address');
  }
}

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 500);

export function recipientNotifications(deps: NotificationServiceDeps): RecipientNotifications {
  const now = deps.now ?? (() => performance.now());
  const listening = new Map<string, { until: number; steps: Promise<ReadonlySet<NotificationStep>> }>();

  const trackingUrl = (order: NotifiedOrder) => `${deps.baseUrl}/track/${order.trackingToken}`;

  /** Why nothing goes to this channel, or null when the message goes. */
  async function skipReason(
    channel: Channel,
    step: NotificationStep,
    settings: RecipientSettings,
    shopTells: boolean,
    address: string | null,
  ): Promise<SkipReason | null> {
    if (settings.shopNotifies || shopTells) return 'shop_notifies';
    if (!(channel === 'email' ? settings.emailSteps : settings.smsSteps).includes(step)) return 'off';
    if (!address) return 'no_address';
    if (await deps.optOuts.isOptedOut(channel, address)) return 'opted_out';
    return null;
  }

  async function send(
    channel: Channel,
    address: string,
    context: {
      order: NotifiedOrder;
      settings: RecipientSettings;
      step: NotificationStep;
      at: Date;
      /** The window the event announced (`eta_changed`): what was decided then, not a later one. */
      announced: DeliveryWindow | null;
    },
  ): Promise<{ providerId: string }> {
    const { order, settings, step } = context;
    const outbox = order.livemode ? deps : deps.testOutbox;
    if (!outbox) throw new MailError('test mode: no development outbox for a test order', true);
    const brandName = await deps.facts.brandName(order.brandId);
    const window =
      context.announced ??
      ((step === 'out_for_delivery' || step === 'eta_changed') && deps.arrivalWindow
        ? await deps.arrivalWindow(order.id)
        : null);
    const url = trackingUrl(order);
    const facts = {
      step,
      locale: settings.locale as Locale,
      brandName,
      carrierName: deps.carrierName,
      trackingRef: order.trackingRef,
      trackingUrl: url,
      changeUrl: `${url}/change`,
      promisedDate: order.promisedDate,
      window,
      at: context.at,
    };
    if (channel === 'sms') {
      return outbox.sms.send({ to: address, from: deps.smsFrom ?? '', text: recipientSms(facts) });
    }
    const unsubscribeUrl = `${deps.baseUrl}/unsubscribe/${await deps.tokens.tokenFor('email', address)}`;
    const logo = settings.logoSha256 ? await deps.settings.logo(order.brandId, settings.logoSha256) : null;
    const mail = recipientEmail({
      ...facts,
      colour: settings.colour,
      hasLogo: logo !== null,
      unsubscribeUrl,
    });
    const { messageId } = await outbox.mailer.send({
      to: address,
      fromName: settings.senderName ?? brandName,
      ...mail,
      unsubscribeUrl,
      inline: logo ? [{ cid: 'logo', filename: 'logo.png', contentType: 'image/png', content: logo }] : [],
    });
    return { providerId: messageId };
  }

  return {
    async listens(brandId, type) {
      if (!NOTIFYING_EVENT_TYPES.has(type)) return false;
      let cached = listening.get(brandId);
      if (!cached || cached.until <= now()) {
        const steps = deps.settings.get(brandId).then(
          (s) => (s.shopNotifies ? new Set<NotificationStep>() : new Set([...s.emailSteps, ...s.smsSteps])),
          (err: unknown) => {
            listening.delete(brandId);
            throw err;
          },
        );
        cached = { until: now() + LISTENS_TTL_MS, steps };
        listening.set(brandId, cached);
      }
      const steps = await cached.steps;
      // A creation can only confirm, a moved window only tell it: with that step off (the
      // default), nothing is written.
      if (type === 'order.created') return steps.has('confirmed');
      if (type === 'order.eta_changed') return steps.has('eta_changed');
      return steps.size > 0;
    },

    forget(brandId) {
      listening.delete(brandId);
    },

    async notify(eventId, options = {}) {
      const event = await deps.facts.event(eventId);
      if (!event) return 'no such event';
      const step = stepOf(event.type, event.data);
      if (!step) return `nothing to tell (${event.type})`;
      const ref = (event.data as { order: { tracking_ref: string } }).order.tracking_ref;
      const order = await deps.facts.order(ref);
      if (!order) return `order ${ref} not found`;
      const settings = await deps.settings.get(order.brandId);
      // Shopify, WooCommerce and PrestaShop tell their customer of every move but the confirmation.
      const link = step === 'confirmed' ? null : await deps.facts.shopLink(ref);
      const shopTells = link?.active === true && link.notifyCustomer;

      const outcomes: string[] = [];
      let retry: unknown = null;
      for (const channel of CHANNELS) {
        const address = addressOf(order, channel);
        const reason = await skipReason(channel, step, settings, shopTells, address);
        const { notification, created } = await deps.store.claim({
          orderId: order.id,
          eventId,
          step,
          channel,
          status: reason ? 'skipped' : 'sending',
          detail: reason,
        });
        if (!created && notification.status !== 'sending') {
          outcomes.push(`${channel}: already ${notification.status}`);
          continue;
        }
        if (reason) {
          // A retry finds the recipient opted out (or the step turned off) since: nothing goes.
          if (!created) await deps.store.settle(notification.id, { status: 'skipped', detail: reason });
          outcomes.push(`${channel}: skipped (${reason})`);
          continue;
        }
        try {
          const { providerId } = await send(channel, address!, {
            order,
            settings,
            step,
            at: event.at,
            announced: step === 'eta_changed' ? announcedWindow(event.data) : null,
          });
          await deps.store.settle(notification.id, { status: 'sent', providerId });
          outcomes.push(`${channel}: sent`);
        } catch (err) {
          const permanent = (err instanceof SmsError || err instanceof MailError) && err.permanent;
          if (!permanent && !options.lastAttempt) {
            // The other channel goes on; the queue retries this one (its row stays `sending`, with
            // why, so the brand sees what it waits for).
            await deps.store.retrying(notification.id, messageOf(err));
            retry ??= err;
            outcomes.push(`${channel}: to retry`);
            continue;
          }
          const detail =
            err instanceof SmsError && err.providerCode
              ? `${err.providerCode}: ${messageOf(err)}`
              : messageOf(err);
          // A number the provider refuses because it answered STOP there is kept as our opt-out
          // by the provider's adapter (twilio-sms-sender.ts), which knows its codes.
          await deps.store.settle(notification.id, { status: 'failed', detail: detail.slice(0, 500) });
          outcomes.push(`${channel}: failed`);
        }
      }
      if (retry) throw retry;
      return `${step}: ${outcomes.join(', ')}`;
    },

    ofOrder: (orderId) => deps.store.ofOrder(orderId),

    async resend(id, input, by) {
      const found = /^ntf_[0-9a-f]{16}$/.test(id) ? await deps.store.find(id) : null;
      if (!found) throw new AppError('not_found', `No notification with id "${id}".`);
      if (found.status !== 'failed' || found.step === 'code' || !found.eventId)
        throw new AppError(
          'invalid_transition',
          `Only a failed notification is resent (this one is ${found.status}).`,
        );
      const step = found.step;
      const event = await deps.facts.event(found.eventId);
      const order = await deps.facts.order(found.trackingRef);
      if (!event || !order) throw new AppError('not_found', `No notification with id "${id}".`);
      const corrected = input.to?.trim() ? input.to.trim() : null;
      const address = corrected
        ? found.channel === 'sms'
          ? parsePhone(corrected, 'to')!
          : validateEmailFor('to', corrected)
        : addressOf(order, found.channel);
      if (!address) throw invalidField('to', 'the order has no address for this channel: give one');
      if (await deps.optOuts.isOptedOut(found.channel, address))
        throw new AppError(
          'invalid_transition',
          'The recipient opted out of these messages at this address.',
        );
      if (!(await deps.store.reopen(found.id, 'resent by an operator')))
        throw new AppError('invalid_transition', 'This notification is being resent already.');
      const settings = await deps.settings.get(order.brandId);
      let outcome: ResendOutcome;
      try {
        const { providerId } = await send(found.channel, address, {
          order,
          settings,
          step,
          at: event.at,
          // A resent window is the one its event announced, as in the first sending.
          announced: step === 'eta_changed' ? announcedWindow(event.data) : null,
        });
        await deps.store.settle(found.id, { status: 'sent', providerId });
        outcome = { trackingRef: order.trackingRef, channel: found.channel, status: 'sent', detail: null };
      } catch (err) {
        const detail = messageOf(err);
        await deps.store.settle(found.id, { status: 'failed', detail });
        outcome = { trackingRef: order.trackingRef, channel: found.channel, status: 'failed', detail };
      }
      await deps.audit.record({
        action: 'notification.resent',
        by,
        object: { type: 'notification', id: found.id },
        brandId: order.brandId,
        orderRefs: [order.trackingRef],
        changes: { status: { before: 'failed', after: outcome.status } },
        details: { channel: found.channel, step, corrected_address: corrected !== null },
      });
      return outcome;
    },
  };
}
