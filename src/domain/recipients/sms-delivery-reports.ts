/**
 * What became of an SMS after the provider accepted it (its delivery reports): the notification
 * sent under that provider id moves from `sent` to `delivered` or `failed` once, and stays there.
 */
export interface SmsDeliveryReports {
  /** Whether a notification with that provider id was waiting for its report. */
  delivered(providerId: string): Promise<boolean>;
  failed(providerId: string, detail: string): Promise<boolean>;
}
