import { AppError, fieldProblem, validateAll } from '../../errors.ts';
import type { Role, User } from '../accounts/user.ts';
import type { Author } from '../audit/actor.ts';
import type { AuditStore } from '../audit/ports.ts';
import { prefixedId } from '../ids.ts';
import type { Clock } from '../shared/clock.ts';
import type { UnitOfWork } from '../shared/stores.ts';
import { parseEventTypes } from './events.ts';
import type { DestinationGuard } from './outbound.ts';
import type { WebhookRequest, WebhookRequestStore } from './ports.ts';

export type { WebhookRequest } from './ports.ts';

const MAX_REQUEST_MESSAGE = 2000;

/** Webhooks are a developer's matter: finance people see invoices only. */
export const canSeeWebhooks = (role: Role): boolean => role !== 'finance';

/** The account area's "request an endpoint" form and the operator's queue of such requests. */
export interface WebhookRequests {
  mayUse(user: User): void;
  request(user: User, input: { url: string; events: string[]; message: string }): Promise<WebhookRequest>;
  /** The brand's own requests, newest first. */
  list(user: User): Promise<WebhookRequest[]>;
  /** Every brand's open requests, oldest first: the operator's queue. */
  listOpen(): Promise<WebhookRequest[]>;
  /**
   * The operator answers a request: set up (`done`) or `declined`. The brand sees the status; the
   * audit trail records who answered (`webhook.request_closed`).
   */
  close(id: string, status: 'done' | 'declined', by: Author): Promise<WebhookRequest>;
  /** Opening a brand's subscription API answers all its open requests. */
  closeOpenForBrand(brandId: string): Promise<number>;
}

/**
 * Requests made from the account area. Endpoints themselves stay the operator's (they carry a
 * signing secret handed over out of band); a request only records what the brand wants, after the
 * URL has passed the very guard `dlv webhooks add` applies, so the operator is never handed a
 * destination that would be refused.
 */
export function webhookRequests(deps: {
  repository: WebhookRequestStore;
  transact: UnitOfWork<{ webhookRequests: WebhookRequestStore; audit: AuditStore }>;
  destinations: DestinationGuard;
  clock: Clock;
}): WebhookRequests {
  function mayUse(user: User): void {
    if (!canSeeWebhooks(user.role))
      throw new AppError('insufficient_scope', 'Your role cannot manage webhooks.');
  }

  return {
    mayUse,

    async request(
      user: User,
      input: { url: string; events: string[]; message: string },
    ): Promise<WebhookRequest> {
      mayUse(user);
      const checked = validateAll({
        url: () => deps.destinations.validate(input.url.trim()),
        events: () => {
          // An empty form would mean "every event" to parseEventTypes; here one must be chosen.
          if (input.events.length === 0) throw fieldProblem('events', 'events.none');
          return parseEventTypes(input.events);
        },
        message: () => {
          const message = input.message.trim();
          if (message.length > MAX_REQUEST_MESSAGE)
            throw fieldProblem('message', 'length.atMost', { max: MAX_REQUEST_MESSAGE });
          return message;
        },
      });
      await deps.destinations.assertPublic(checked.url);
      return deps.repository.insert({
        id: prefixedId('whr'),
        brandId: user.brandId,
        userId: user.id,
        url: checked.url.href,
        eventTypes: checked.events,
        message: checked.message,
        at: deps.clock(),
      });
    },

    list(user: User): Promise<WebhookRequest[]> {
      mayUse(user);
      return deps.repository.listForBrand(user.brandId, 20);
    },

    listOpen: (): Promise<WebhookRequest[]> => deps.repository.listOpen(),

    async close(id: string, status: 'done' | 'declined', by: Author): Promise<WebhookRequest> {
      const closed = /^whr_[0-9a-f]{16}$/.test(id)
        ? await deps.transact(async (tx) => {
            const done = await tx.webhookRequests.close(id, status);
            if (done)
              await tx.audit.record({
                action: 'webhook.request_closed',
                by,
                object: { type: 'webhook_request', id },
                brandId: done.brandId,
                changes: { status: { before: 'open', after: status } },
              });
            return done;
          })
        : null;
      if (!closed) throw new AppError('not_found', `no open webhook request with id "${id}"`);
      return closed;
    },

    closeOpenForBrand: (brandId: string): Promise<number> => deps.repository.closeOpenForBrand(brandId),
  };
}
