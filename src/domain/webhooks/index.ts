export type { EventBodyInput, WebhookEventType } from './events.ts';
export { buildEventBody, isWebhookEventType, parseEventTypes, WEBHOOK_EVENT_TYPES } from './events.ts';
export type { DisableInput, NextAttemptInput } from './retry-schedule.ts';
export {
  DISABLE_AFTER_MS,
  MAX_ATTEMPTS,
  MAX_RETRY_AFTER_MS,
  nextAttemptDelay,
  parseRetryAfter,
  RETRY_DELAYS_MS,
  shouldDisableEndpoint,
} from './retry-schedule.ts';
export { generateWebhookSecret, isWebhookSecret } from './secrets.ts';
export type { SignPayloadInput } from './signing.ts';
export { signPayload, WEBHOOK_USER_AGENT } from './signing.ts';
