/**
 * The recipients capability's ports (decision 0007): what the notifications, the SMS provider,
 * the brand's settings and the tracking page's self-service rely on from one another.
 */

/** The steps a recipient can be told about (SPEC §10). */
/**
 * The steps a brand may tell its recipients of, in the order a parcel meets them. `eta_changed`: the
 * arrival window announced moved by 30 minutes or more (`order.eta_changed`, docs/arrival-times.md).
 */
export const NOTIFICATION_STEPS = [
  'confirmed',
  'out_for_delivery',
  'eta_changed',
  'delivered',
  'failed_attempt',
] as const;
export type NotificationStep = (typeof NOTIFICATION_STEPS)[number];

export const CHANNELS = ['email', 'sms'] as const;
export type Channel = (typeof CHANNELS)[number];

/** What a brand tells its recipients and how it looks (table brand_recipient_settings). */
export interface RecipientSettings {
  brandId: string;
  emailSteps: readonly NotificationStep[];
  smsSteps: readonly NotificationStep[];
  /** The e-mails' From name; null: the brand's name. */
  senderName: string | null;
  /** `#rrggbb`, lower case; null: the service's own colour. */
  colour: string | null;
  /** SHA-256 (hex) of the logo PNG, null when none: the logo's URL is built from it. */
  logoSha256: string | null;
  locale: 'fr' | 'en';
  /** The brand's own shop tells its customers: nothing is sent. */
  shopNotifies: boolean;
  updatedAt: Date | null;
}

export const DEFAULT_RECIPIENT_SETTINGS: Omit<RecipientSettings, 'brandId'> = {
  emailSteps: ['out_for_delivery', 'delivered', 'failed_attempt'],
  smsSteps: [],
  senderName: null,
  colour: null,
  logoSha256: null,
  locale: 'fr',
  shopNotifies: false,
  updatedAt: null,
};

export interface RecipientSettingsRepository {
  /** The brand's settings, the defaults when it never chose. */
  get(brandId: string): Promise<RecipientSettings>;
  save(settings: Omit<RecipientSettings, 'logoSha256' | 'updatedAt'>): Promise<RecipientSettings>;
  /** Stores the (already re-encoded) PNG, or removes it with null. */
  setLogo(brandId: string, png: Buffer | null): Promise<RecipientSettings>;
  logo(brandId: string, sha256: string): Promise<Buffer | null>;
}

/** How a recipient asked for nothing more (recipient_opt_outs.source). */
export type OptOutSource = 'link' | 'one_click' | 'sms_stop' | 'operator';

/** Recipients who asked for nothing more, for every brand (SPEC §10). */
export interface OptOuts {
  isOptedOut(channel: Channel, address: string): Promise<boolean>;
  optOut(channel: Channel, address: string, source: OptOutSource): Promise<void>;
}

/** A recipient e-mail: both parts, and the headers a bulk-ish sender must carry. */
export interface RecipientEmail {
  to: string;
  /** Display name of From (the brand's sender name); the address is the service's MAIL_FROM. */
  fromName: string;
  subject: string;
  text: string;
  html: string;
  /** `List-Unsubscribe` URL (with `List-Unsubscribe-Post: List-Unsubscribe=One-Click`); null for a code. */
  unsubscribeUrl: string | null;
  /** Inline images referenced as `cid:` in the HTML (the brand's logo). */
  inline?: readonly { cid: string; filename: string; contentType: string; content: Buffer }[];
}

export interface RecipientMailer {
  /**
   * Resolves with the Message-ID once the SMTP server accepted it (or the .eml was written). A
   * refusal throws `MailError`: `permanent` when sending again cannot help.
   */
  send(mail: RecipientEmail): Promise<{ messageId: string }>;
}

/**
 * The SMTP server refused a message. Its reply text (the recipient's address left out) is the
 * message. `permanent`: a 5yz reply to the recipient or to the message (RFC 5321 §4.2.1: the same
 * request would be refused again, e.g. `550 5.1.1 user unknown`); otherwise (4yz, no answer, a
 * refusal of our own set-up) the job retries.
 */
export class MailError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
  ) {
    super(message);
    this.name = 'MailError';
  }
}

/** One SMS for the provider. */
export interface OutgoingSms {
  /** E.164. */
  to: string;
  /** The service's number (E.164), so the recipient can answer STOP. */
  from: string;
  text: string;
}

/**
 * The SMS provider. `send` resolves with the provider's message id once accepted; it throws
 * `SmsError` with `permanent: true` when sending again cannot help (invalid or opted-out number),
 * `permanent: false` when it may (throttled, provider down): the job retries those.
 */
export interface SmsSender {
  send(sms: OutgoingSms): Promise<{ providerId: string }>;
}

export class SmsError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
    /** The provider's own error code, when it gave one. */
    readonly providerCode: string | null = null,
    /** When the provider said how long to wait before trying again (Retry-After), in ms. */
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
    this.name = 'SmsError';
  }
}

/** What the recipient chose (table recipient_choices), in clear: only for the courier of that delivery. */
export interface RecipientChoices {
  instructions: string | null;
  safePlace: {
    kind: 'neighbour' | 'caretaker' | 'behind_door' | 'letterbox_area' | 'other';
    detail: string | null;
  } | null;
}
