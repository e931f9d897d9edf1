import type { Role, TeamInvitation, TokenPurpose, User } from './user.ts';

/** A pending invitation as stored: the link's hash, never the link. */
export interface NewTeamInvitation {
  id: string;
  brandId: string;
  email: string;
  role: Role;
  tokenHash: Buffer;
  invitedBy: string;
  at: Date;
  expiresAt: Date;
}

/** Per-key token buckets (login and sign-up throttling; the API keys too). */
export interface Decision {
  allowed: boolean;
  /** Whole requests left right now. */
  remaining: number;
  /** When refused: how long until one request is allowed again. */
  retryAfterMs: number;
  /** How long until the bucket is full again. */
  resetMs: number;
}

export interface RateLimiter {
  take(key: string): Promise<Decision>;
  /**
   * Gives back one request taken from the key's bucket (never past its burst): an attempt that
   * succeeded, where only failures should count. Taking first and giving back after keeps
   * concurrent attempts from all passing a check made before any of them is counted.
   */
  refund(key: string): Promise<void>;
  close(): Promise<void>;
}

interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  /** The one link the message carries: logged when mail is only written to disk. */
  link: string | null;
}

export interface Mailer {
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

/**
 * The account e-mails, each in the reader's language (`locale` as stored: an unknown one reads
 * English). Their words are the i18n module's; the domain says only which mail goes to whom.
 */
export interface AccountMail {
  verifyEmail(to: string, token: string, locale: string): Promise<void>;
  resetPassword(to: string, token: string, locale: string): Promise<void>;
  /** An invitation into `brandName`'s account, named so the invitee knows whose it is. */
  invite(to: string, token: string, brandName: string, locale: string): Promise<void>;
  accountExists(to: string, locale: string): Promise<void>;
  /** An invitation to an address that belongs to another brand: what happens, and no link that moves it. */
  inviteClash(to: string, brandName: string, locale: string): Promise<void>;
  /** A shop link that stopped working (the console's Exceptions): which, why, and where to link it again. */
  shopLinkNeedsAttention(
    to: string,
    link: { shop: string; platform: string; reason: string },
    locale: string,
  ): Promise<void>;
}

export interface SessionRecord {
  userId: string;
  createdAt: Date;
  lastSeenAt: Date;
  stepUpAt: Date | null;
  csrfToken: string;
}

/** Sessions (keyed by the SHA-256 of the cookie's token) and one-time e-mail tokens (hashed too). */
export interface SessionStore {
  insert(session: { id: Buffer; userId: string; csrfToken: string; at: Date }): Promise<void>;
  /**
   * The session if it has been used since `idleSince` and opened after `openedSince`, its last use
   * moved to `at` in the same statement; an idle or too old one is deleted and null returned.
   */
  touch(id: Buffer, at: Date, idleSince: Date, openedSince: Date): Promise<SessionRecord | null>;
  stepUp(id: Buffer, at: Date): Promise<void>;
  delete(id: Buffer): Promise<void>;
  deleteAllOf(userId: string): Promise<void>;
  /**
   * Sessions idle since before `idleSince` or opened before `openedSince`, and tokens expired or
   * used before `before`: dead rows.
   */
  deleteExpired(
    idleSince: Date,
    openedSince: Date,
    before: Date,
  ): Promise<{
    sessions: number;
    tokens: number;
  }>;
  insertToken(token: { hash: Buffer; userId: string; purpose: TokenPurpose; expiresAt: Date }): Promise<void>;
  /** Marks the token used and returns its user, or null when unknown, used, expired or for another purpose. */
  consumeToken(hash: Buffer, purpose: TokenPurpose, at: Date): Promise<string | null>;
  /** Uses up every live token of the user for `purposes` (a new password ends every reset link). */
  useUpTokens(userId: string, purposes: readonly TokenPurpose[], at: Date): Promise<void>;
  /** Queues the reset e-mail for an address, whoever it belongs to (the job looks). */
  enqueueResetMail(email: string, locale: string): Promise<void>;
  /** Whether the token would be accepted now (the reset form is shown only for a live link). */
  tokenIsLive(hash: Buffer, purpose: TokenPurpose, at: Date): Promise<boolean>;
}

/** People of a brand. E-mails are unique whatever their case (`users_email_idx` on lower(email)). */
export interface UserStore {
  /** Null when the e-mail is already taken (by any brand). */
  insert(user: { id: string; brandId: string; email: string; passwordHash: string; role: Role }): Promise<
    | (User & {
        passwordHash: string;
      })
    | null
  >;
  findById(id: string): Promise<
    | (User & {
        passwordHash: string;
      })
    | null
  >;
  findByEmail(email: string): Promise<
    | (User & {
        passwordHash: string;
      })
    | null
  >;
  emailTaken(email: string): Promise<boolean>;
  markVerified(id: string): Promise<void>;
  setPassword(id: string, passwordHash: string): Promise<void>;
  /** The brand's people, oldest first (the team page). */
  listForBrand(brandId: string): Promise<User[]>;
  /** Locks the brand's people (in a transaction) so that role changes are decided one at a time. */
  lockBrand(brandId: string): Promise<
    {
      id: string;
      role: Role;
    }[]
  >;
  setRole(id: string, role: Role): Promise<void>;
  /** Their sessions and one-time tokens go with them (ON DELETE CASCADE). */
  delete(id: string): Promise<void>;
}

/** Pending team invitations (team_invitations), found by the SHA-256 of their link's secret. */
export interface TeamInvitationStore {
  /** Creates the brand's invitation of `email`, or replaces its link, role and expiry (the id stays). */
  upsert(invitation: NewTeamInvitation): Promise<void>;
  /** The brand's invitations still open at `at`, oldest first (the team page). */
  listForBrand(brandId: string, at: Date): Promise<TeamInvitation[]>;
  /** The live invitation of a link, locked when asked (in a transaction, to accept it once). */
  findLive(tokenHash: Buffer, at: Date, lock?: boolean): Promise<TeamInvitation | null>;
  /** False when the brand has no such invitation (another brand's, or already gone). */
  delete(brandId: string, id: string): Promise<boolean>;
  /** Removes the invitations expired before `before` (every brand's); how many. */
  deleteExpired(before: Date): Promise<number>;
}

/**
 * The brand's shop links, as far as an account's security needs them: a password reset on a
 * brand nobody confirmed disconnects the shops linked meanwhile. The connectors own the rest.
 */
export interface ShopLinkStore {
  list(brandId: string): Promise<{ id: string; status: string; createdAt: Date }[]>;
  /** Credentials erased with the status change; false when it was already disconnected. */
  disconnect(id: string, reason: string, at: Date): Promise<boolean>;
}
