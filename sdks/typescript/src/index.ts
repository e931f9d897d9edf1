export { type ClientOptions, DlvClient } from './client.js';
export { DlvApiError, DlvConnectionError, type ErrorEnvelope, isApiError } from './errors.js';
export * from './generated.js';
export {
  type FailureReason,
  isTestKey,
  nextSimulatedStep,
  type SimulationTarget,
} from './test-mode.js';
export { SDK_VERSION } from './version.js';
export { sign as signWebhook, verifyWebhook, WebhookVerificationError } from './webhooks.js';
