/**
 * What became of an SMS after the provider accepted it (its delivery reports): the notification
 * sent under that provider id moves from `sent` to `delivered` or `failed` once, and stays there.
 */
export interface SmsDeliveryReports {
  /**
   * `settled`: the notification with that provider id was waiting and now has its outcome;
   * `held`: no notification carries that id yet (the report outran the job), kept for it;
   * `ignored`: its notification had its outcome already.
   */
  delivered(providerId: string): Promise<ReportOutcome>;
  failed(providerId: string, detail: string): Promise<ReportOutcome>;
}

export type ReportOutcome = 'settled' | 'held' | 'ignored';
