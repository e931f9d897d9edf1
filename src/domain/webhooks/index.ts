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
export type { DeliveryAttemptResult, SendWebhookInput } from './send-webhook.ts';
export { DEFAULT_TIMEOUT_MS, RESPONSE_EXCERPT_BYTES, sendWebhook } from './send-webhook.ts';
export type { SignPayloadInput } from './signing.ts';
export { signPayload, WEBHOOK_USER_AGENT } from './signing.ts';
export type { DestinationOptions, ResolveHost, UrlGuardOptions } from './url-guard.ts';
export { addressRange, assertPublicDestination, MAX_URL_LENGTH, validateEndpointUrl } from './url-guard.ts';
