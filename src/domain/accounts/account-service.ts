import { randomBytes } from 'node:crypto';
import { AppError, fieldProblem, invalidField } from '../../errors.ts';
import type { Author } from '../audit/actor.ts';
import { validateBrandName } from '../brands/brand.ts';
import { brandCreated, brandsIn } from '../brands/brand-service.ts';
import { prefixedId } from '../ids.ts';
import type { Clock } from '../shared/clock.ts';
import type { Stores, Transact } from '../shared/stores.ts';
import { countSignInAttempt } from './failed-sign-ins.ts';
import { checkPassword, hashPassword, verifyDecoy, verifyPassword } from './password.ts';
import type { AccountMail, RateLimiter, SessionRecord, SessionStore, UserStore } from './ports.ts';
import { hashSecret, newSecret, TOKEN_PATTERN } from './secrets.ts';
import { isRole, type TeamInvitation, type TokenPurpose, type User, validateEmail } from './user.ts';

const SESSION_IDLE_MS = 12 * 3600_000;
/** However active, a session ends this long after sign-in (ASVS 3.3.1 wants an absolute limit). */
const SESSION_ABSOLUTE_MS = 7 * 24 * 3600_000;
const STEP_UP_MS = 10 * 60_000;
const RESET_TTL_MS = 3600_000;
const VERIFY_TTL_MS = 24 * 3600_000;
const INVITE_TTL_MS = 7 * 24 * 3600_000;

export interface ActiveSession {
  /** SHA-256 of the cookie's token: what the database knows the session by. */
  id: Buffer;
  user: User;
  record: SessionRecord;
}

export interface AccountServiceDeps {
  users: UserStore;
  sessions: SessionStore;
  transact: Transact;
  mail: AccountMail;
  /** Sign-in attempts, counted per account and per address. */
  signInLimiter: RateLimiter;
  /** Reset and verification e-mails asked for, counted per address (e-mail or account) and per client address. */
  resetLimiter: RateLimiter;
  signup: 'open' | 'invite';
  clock: Clock;
  /** Told of keys a password reset revoked, so this process's authentication cache drops them. */
  onKeyRevoked?: (keyId: string) => void;
  /** Told when a password reset disconnected shop links, so the connectors' directory forgets them. */
  onShopsChanged?: () => void;
}

/** Where a team invitation's link stands (see invitationLink). */
type InvitationAnswer = { state: 'live' | 'taken'; brandName: string };

/** What accepting an invitation did (see acceptInvitation). */
type InvitationAcceptance =
  | { state: 'taken'; brandName: string }
  /** The account is ready and signed in: `session.token` is the new session's cookie. */
  | { state: 'accepted'; brandName: string; session: { token: string } };

const SIGN_IN_REFUSED = 'The e-mail or the password is wrong.';
/** The account area's people, sessions and one-time links (sign-up, sign-in, resets, invitations). */
/** A brand owner's invitation of a person into the brand (AccountService `inviteMember`). */
interface MemberInvitation {
  brandId: string;
  brandName: string;
  invitedBy: string;
  email: string;
  role: string;
  locale: string;
}

export interface AccountService {
  signupMode: 'open' | 'invite';
  /**
   * Creates the brand and its first user (owner) and e-mails the verification link. An e-mail
   * already taken gets the same answer (and its owner a notice), so sign-up tells nobody who has
   * an account.
   */
  signUp(input: { company: string; email: string; password: string; locale: string }): Promise<void>;
  /**
   * Another verification link, within the reset e-mails' limits (their own buckets, per account
   * and per client address): a signed-in session cannot make us mail an address without end.
   * Over a limit nothing is sent and the caller answers the same.
   */
  resendVerification(user: User, locale: string, ip: string): Promise<void>;
  /** True when the link was good (unused, not expired). */
  verifyEmail(token: string): Promise<boolean>;
  /** A new session (a new token: never one the browser brought) for the right e-mail and password. */
  signIn(input: { email: string; password: string; ip: string }): Promise<{ token: string }>;
  /** The session of a cookie's token, or null (unknown, idle for 12 h, 7 days old, or its brand disabled). */
  resume(token: string): Promise<ActiveSession | null>;
  signOut(session: ActiveSession): Promise<void>;
  /** Removes idle or too old sessions, dead one-time tokens and expired team invitations (hourly job). */
  deleteExpired(): Promise<{ sessions: number; tokens: number; invitations: number }>;
  /**
   * Re-entering the password opens sensitive actions for STEP_UP_MS. Each attempt counts with the
   * sign-in attempts (same buckets, per account and per address): a stolen session cannot guess
   * the password more often than a sign-in form could, and past the limit the session ends.
   */
  stepUp(session: ActiveSession, password: string, ip: string): Promise<void>;
  isSteppedUp(session: ActiveSession): boolean;
  /**
   * Queues a reset e-mail (`sendResetLink`) for the address, within the limits; says nothing
   * either way. The same work whether the address has an account or not (no lookup here, one
   * job queued), so neither the answer nor its time tells who is a customer. Over a limit,
   * nothing is queued and the caller answers the same.
   */
  requestReset(input: { email: string; locale: string; ip: string }): Promise<void>;
  /** The reset e-mail's job: a link (one hour, single use) when the address has an account. */
  sendResetLink(email: string, locale: string): Promise<void>;
  /**
   * Invites a person into a brand (`dlv users invite`): the account is created without a usable
   * password, and the e-mailed link (7 days, single use) lets them choose one.
   */
  invite(input: { brandId: string; email: string; role: string; locale: string }): Promise<User>;
  /**
   * A brand owner's invitation (the team page): a pending invitation (team_invitations), the
   * account made only when the invitee accepts. An address another brand's person holds gets the
   * same invitation, listed and answered alike, so an owner cannot learn who has an account
   * elsewhere; its holder is told by e-mail that they cannot join while a member of their
   * company (no link), and nothing of theirs changes. Inviting again replaces the link, role and
   * expiry. Someone of the brand itself is refused: the owner sees them on the team page anyway.
   */
  inviteMember(input: MemberInvitation): Promise<void>;
  /**
   * What a team invitation's link leads to: the password form (`live`), or, when the address has
   * an account by now (another company's), the page saying it cannot join. Null when the link is
   * no team invitation (it may be one of `dlv users invite`, in user_tokens).
   */
  invitationLink(token: string): Promise<InvitationAnswer | null>;
  /**
   * Accepts an invitation with the chosen password, and signs the person in (a new session):
   * a team invitation makes the account (confirmed: the link reached the inbox) and is gone; a
   * `dlv users invite` link sets the first password of the account made then, as a reset does.
   * A team invitation whose address has an account by now does nothing (`taken`: that account
   * stays as it is, the invitation pending). A link that is neither, or no longer live, is
   * `not_found`; a refused password is the field's error, and nothing is changed.
   */
  acceptInvitation(token: string, password: string): Promise<InvitationAcceptance>;
  linkIsLive(token: string, purpose: TokenPurpose): boolean | Promise<boolean>;
  /**
   * Sets the new password with a live reset link, and ends every session of the user and every
   * other reset or invitation link still out (an older link must not undo the change); the person
   * then signs in. (An invitation's link is `acceptInvitation`'s.)
   */
  resetPassword(token: string, password: string): Promise<void>;
}

/** Sign-up, e-mail verification, sign-in and sessions, password reset. */
export function accountService(deps: AccountServiceDeps): AccountService {
  const { users, sessions, clock } = deps;

  async function issueToken(userId: string, purpose: TokenPurpose, ttlMs: number) {
    const secret = newSecret();
    await sessions.insertToken({
      hash: secret.hash,
      userId,
      purpose,
      expiresAt: new Date(clock().getTime() + ttlMs),
    });
    return secret.token;
  }

  async function openSession(userId: string): Promise<{ token: string }> {
    const secret = newSecret();
    await sessions.insert({
      id: secret.hash,
      userId,
      csrfToken: randomBytes(32).toString('base64url'),
      at: clock(),
    });
    return { token: secret.token };
  }

  /**
   * What an account held before its address was proven: a reset is the first proof that the
   * address's real owner is here, so whatever was made without it stops. Keys that person created;
   * and if no owner of the brand had ever confirmed (a sign-up in someone else's name), every key
   * and shop link of the brand made since its first owner arrived (the links' secrets erased: the
   * shops' calls are refused). What the operator made for the brand before that stays.
   */
  async function revokeUnproven(stores: Stores, user: User) {
    const since = user.role === 'owner' ? await stores.brands.unconfirmedSince(user.brandId) : null;
    const keys = (await stores.apiKeys.listForBrand(user.brandId)).filter(
      (k) => !k.revokedAt && (k.createdByUserId === user.id || (since !== null && k.createdAt >= since)),
    );
    for (const key of keys) {
      await stores.apiKeys.revoke(key.id);
      await stores.apiKeys.recordEvent({
        brandId: key.brandId,
        keyId: key.id,
        userId: null,
        action: 'revoked',
        ip: null,
      });
    }
    let shops = 0;
    if (since) {
      for (const link of await stores.connections.list(user.brandId)) {
        if (link.status === 'disconnected' || link.createdAt < since) continue;
        const reason =
          'linked before any owner confirmed their e-mail address (disconnected at a password reset)';
        if (await stores.connections.disconnect(link.id, reason, clock())) shops++;
      }
    }
    return { keyIds: keys.map((k) => k.id), shops };
  }

  /** A team invitation's state: `taken` once its address has an account (another company's). */
  async function answerFor(stores: Stores, invitation: TeamInvitation): Promise<InvitationAnswer> {
    const brandName = (await brandsIn(stores).get(invitation.brandId)).name;
    return (await stores.users.emailTaken(invitation.email))
      ? { state: 'taken', brandName }
      : { state: 'live', brandName };
  }

  const deadLink = () => new AppError('not_found', 'This link has expired or has already been used.');

  /**
   * Sets the password with a live link (a reset's, or `dlv users invite`'s), and ends every session
   * of the user and every other reset or invitation link still out (an older link must not undo
   * the change). Returns whose password it was.
   */
  async function setPasswordByLink(
    token: string,
    password: string,
    purpose: 'reset_password' | 'invite',
  ): Promise<{ userId: string; brandName: string }> {
    if (!TOKEN_PATTERN.test(token)) throw deadLink();
    const { user, revoked } = await deps.transact(async (stores) => {
      const userId = await stores.sessions.consumeToken(hashSecret(token), purpose, clock());
      const found = userId ? await stores.users.findById(userId) : null;
      if (!found) throw deadLink();
      checkPassword(password, found.email);
      await stores.users.setPassword(found.id, await hashPassword(password));
      await stores.sessions.useUpTokens(found.id, ['reset_password', 'invite'], clock());
      // Whoever held the old password may hold a session: none survives the change.
      await stores.sessions.deleteAllOf(found.id);
      // An invitation's link is the account's first use: nothing was made before it.
      const { passwordHash: _, ...user } = found;
      const unproven =
        purpose === 'reset_password' && !user.emailVerifiedAt ? await revokeUnproven(stores, user) : null;
      // The link reached the inbox, which is what verification proves.
      await stores.users.markVerified(user.id);
      return { user, revoked: unproven };
    });
    for (const keyId of revoked?.keyIds ?? []) deps.onKeyRevoked?.(keyId);
    if (revoked?.shops) deps.onShopsChanged?.();
    return { userId: user.id, brandName: user.brandName };
  }

  return {
    signupMode: deps.signup,

    async signUp(input: { company: string; email: string; password: string; locale: string }): Promise<void> {
      if (deps.signup !== 'open') throw new AppError('not_found', 'Sign-up is by invitation only.');
      const email = validateEmail(input.email);
      checkPassword(input.password, email);
      const passwordHash = await hashPassword(input.password);
      const taken = new Error('e-mail taken');
      const created = await deps
        .transact(async (stores) => {
          const brand = await stores.brands.insert({
            id: prefixedId('brd'),
            name: validateBrandName(input.company),
            defaultPickupAddress: null,
          });
          const user = await stores.users.insert({
            id: prefixedId('usr'),
            brandId: brand.id,
            email,
            passwordHash,
            role: 'owner',
          });
          if (!user) throw taken; // rolls the brand back with it
          // The person signing up creates their brand: they are its author in the trail.
          const by: Author = { actor: { kind: 'user', userId: user.id, brandId: brand.id }, origin: null };
          await stores.audit.record(brandCreated(brand, by));
          return user;
        })
        .catch((err) => {
          if (err === taken) return null;
          throw err;
        });
      if (!created) {
        await deps.mail.accountExists(email, input.locale);
        return;
      }
      await deps.mail.verifyEmail(
        email,
        await issueToken(created.id, 'verify_email', VERIFY_TTL_MS),
        input.locale,
      );
    },

    async resendVerification(user: User, locale: string, ip: string): Promise<void> {
      if (user.emailVerifiedAt) return;
      if (!(await deps.resetLimiter.take(`verify:ip:${ip}`)).allowed) return;
      if (!(await deps.resetLimiter.take(`verify:acct:${user.id}`)).allowed) return;
      await deps.mail.verifyEmail(
        user.email,
        await issueToken(user.id, 'verify_email', VERIFY_TTL_MS),
        locale,
      );
    },

    async verifyEmail(token: string): Promise<boolean> {
      if (!TOKEN_PATTERN.test(token)) return false;
      const userId = await sessions.consumeToken(hashSecret(token), 'verify_email', clock());
      if (!userId) return false;
      await users.markVerified(userId);
      return true;
    },

    async signIn(input: { email: string; password: string; ip: string }): Promise<{ token: string }> {
      const email = input.email.trim().toLowerCase();
      const counted = await countSignInAttempt(deps.signInLimiter, 'signin', email.slice(0, 254), input.ip);
      const user = email.length <= 254 ? await users.findByEmail(email) : null;
      if (!user || input.password.length > 1024) {
        await verifyDecoy(input.password);
        throw new AppError('unauthorized', SIGN_IN_REFUSED);
      }
      if (!(await verifyPassword(user.passwordHash, input.password))) {
        throw new AppError('unauthorized', SIGN_IN_REFUSED);
      }
      if (user.brandDisabledAt) throw new AppError('unauthorized', 'This account has been disabled.');
      // Only failures stay counted: colleagues behind one office address never lock each other out.
      await counted.succeeded();
      return openSession(user.id);
    },

    async resume(token: string): Promise<ActiveSession | null> {
      if (!TOKEN_PATTERN.test(token)) return null;
      const id = hashSecret(token);
      const now = clock();
      const record = await sessions.touch(
        id,
        now,
        new Date(now.getTime() - SESSION_IDLE_MS),
        new Date(now.getTime() - SESSION_ABSOLUTE_MS),
      );
      if (!record) return null;
      const found = await users.findById(record.userId);
      if (!found || found.brandDisabledAt) {
        await sessions.delete(id);
        return null;
      }
      const { passwordHash: _, ...user } = found;
      return { id, user, record };
    },

    signOut: (session: ActiveSession) => sessions.delete(session.id),

    async deleteExpired() {
      const now = clock().getTime();
      const dead = new Date(now - 3600_000);
      const deleted = await sessions.deleteExpired(
        new Date(now - SESSION_IDLE_MS),
        new Date(now - SESSION_ABSOLUTE_MS),
        dead,
      );
      const invitations = await deps.transact((stores) => stores.teamInvitations.deleteExpired(dead));
      return { ...deleted, invitations };
    },

    async stepUp(session: ActiveSession, password: string, ip: string): Promise<void> {
      let counted: { succeeded(): Promise<void> };
      try {
        counted = await countSignInAttempt(
          deps.signInLimiter,
          'signin',
          session.user.email.toLowerCase(),
          ip,
        );
      } catch (err) {
        await sessions.delete(session.id);
        throw err;
      }
      const found = await users.findById(session.user.id);
      if (!found || !(await verifyPassword(found.passwordHash, password.slice(0, 1024)))) {
        throw new AppError('unauthorized', 'The password is wrong.');
      }
      await counted.succeeded();
      const at = clock();
      await sessions.stepUp(session.id, at);
      session.record.stepUpAt = at;
    },

    isSteppedUp(session: ActiveSession): boolean {
      const at = session.record.stepUpAt;
      return at !== null && clock().getTime() - at.getTime() < STEP_UP_MS;
    },

    async requestReset(input: { email: string; locale: string; ip: string }): Promise<void> {
      if (!(await deps.resetLimiter.take(`reset:ip:${input.ip}`)).allowed) return;
      let email: string;
      try {
        email = validateEmail(input.email).toLowerCase();
      } catch {
        return; // no address could receive it
      }
      if (!(await deps.resetLimiter.take(`reset:acct:${email}`)).allowed) return;
      await deps.transact((stores) => stores.sessions.enqueueResetMail(email, input.locale));
    },

    async sendResetLink(email: string, locale: string): Promise<void> {
      const user = await users.findByEmail(email);
      if (!user) return;
      await deps.mail.resetPassword(
        user.email,
        await issueToken(user.id, 'reset_password', RESET_TTL_MS),
        locale,
      );
    },

    async invite(input: { brandId: string; email: string; role: string; locale: string }): Promise<User> {
      const email = validateEmail(input.email);
      if (!isRole(input.role)) throw invalidField('role', 'must be owner, developer or finance');
      const role = input.role;
      // Nobody knows this password: the account opens only through the link.
      const passwordHash = await hashPassword(newSecret().token);
      const { user, brandName } = await deps.transact(async (stores) => {
        const brand = await brandsIn(stores).get(input.brandId);
        if (brand.disabledAt) throw new AppError('invalid_request', `brand ${brand.id} is disabled`);
        const inserted = await stores.users.insert({
          id: prefixedId('usr'),
          brandId: brand.id,
          email,
          passwordHash,
          role,
        });
        return { user: inserted, brandName: brand.name };
      });
      if (!user) throw fieldProblem('email', 'email.taken');
      const { passwordHash: _, ...invited } = user;
      const token = await issueToken(user.id, 'invite', INVITE_TTL_MS);
      await deps.mail.invite(email, token, brandName, input.locale);
      return invited;
    },

    async inviteMember(input: MemberInvitation): Promise<void> {
      const email = validateEmail(input.email);
      const role = input.role;
      if (!isRole(role)) throw invalidField('role', 'must be owner, developer or finance');
      const holder = await users.findByEmail(email);
      if (holder?.brandId === input.brandId) throw fieldProblem('email', 'email.taken');
      const secret = newSecret();
      const at = clock();
      await deps.transact(async (stores) => {
        const brand = await brandsIn(stores).get(input.brandId);
        if (brand.disabledAt) throw new AppError('invalid_request', `brand ${brand.id} is disabled`);
        await stores.teamInvitations.upsert({
          id: prefixedId('ivt'),
          brandId: brand.id,
          email,
          role,
          tokenHash: secret.hash,
          invitedBy: input.invitedBy,
          at,
          expiresAt: new Date(at.getTime() + INVITE_TTL_MS),
        });
      });
      if (holder) await deps.mail.inviteClash(holder.email, input.brandName, input.locale);
      else await deps.mail.invite(email, secret.token, input.brandName, input.locale);
    },

    async invitationLink(token: string): Promise<InvitationAnswer | null> {
      if (!TOKEN_PATTERN.test(token)) return null;
      return deps.transact(async (stores) => {
        const invitation = await stores.teamInvitations.findLive(hashSecret(token), clock());
        return invitation ? answerFor(stores, invitation) : null;
      });
    },

    async acceptInvitation(token: string, password: string): Promise<InvitationAcceptance> {
      if (!TOKEN_PATTERN.test(token)) throw deadLink();
      const team = await deps.transact(async (stores) => {
        const invitation = await stores.teamInvitations.findLive(hashSecret(token), clock(), true);
        if (!invitation) return null;
        const answer = await answerFor(stores, invitation);
        if (answer.state === 'taken') return { state: 'taken' as const, brandName: answer.brandName };
        checkPassword(password, invitation.email);
        const user = await stores.users.insert({
          id: prefixedId('usr'),
          brandId: invitation.brandId,
          email: invitation.email,
          passwordHash: await hashPassword(password),
          role: invitation.role,
        });
        // Taken meanwhile (a sign-up at the same moment): the same answer as above.
        if (!user) return { state: 'taken' as const, brandName: answer.brandName };
        await stores.users.markVerified(user.id);
        await stores.teamInvitations.delete(invitation.brandId, invitation.id);
        return { state: 'accepted' as const, brandName: answer.brandName, userId: user.id };
      });
      if (team?.state === 'taken') return team;
      // Not a team invitation: `dlv users invite`'s link, to the account made then.
      const { userId, brandName } = team ?? (await setPasswordByLink(token, password, 'invite'));
      return { state: 'accepted', brandName, session: await openSession(userId) };
    },

    linkIsLive: (token: string, purpose: 'reset_password' | 'invite' | 'verify_email') =>
      TOKEN_PATTERN.test(token) ? sessions.tokenIsLive(hashSecret(token), purpose, clock()) : false,

    async resetPassword(token: string, password: string): Promise<void> {
      await setPasswordByLink(token, password, 'reset_password');
    },
  };
}
