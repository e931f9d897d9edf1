import { AppError, invalidField } from '../../errors.ts';
import type { Clock } from '../shared/clock.ts';
import type { Stores, Transact } from '../shared/stores.ts';
import type { AccountService } from './account-service.ts';
import type { RateLimiter, UserStore } from './ports.ts';
import { isRole, type Role, type TeamInvitation, type User, validateEmail } from './user.ts';

const USER_ID = /^usr_[0-9a-f]{16}$/;
const INVITATION_ID = /^ivt_[0-9a-f]{16}$/;

export const LAST_OWNER = 'The brand must keep at least one owner.';
export const NOT_YOURSELF = 'You cannot remove yourself or change your own role.';
export const TOO_MANY_INVITATIONS = 'Too many invitations sent lately: try again in an hour.';
export const ADDRESS_INVITED_TOO_OFTEN =
  'This address has been invited several times in the last hour: try again later.';

/** The team page: a brand's people and pending invitations, managed by its owners. */
export interface TeamManagement {
  list(actor: User): Promise<User[]>;
  /** The brand's pending invitations; an expired one is gone (invite the address again). */
  invitations(actor: User): Promise<TeamInvitation[]>;
  /**
   * An e-mailed link (7 days, single use) that makes the account when accepted; an address of
   * another brand gets the same invitation and answer as a new one: see inviteMember. Each sends
   * an e-mail, so they are limited (`rate_limited`, TOO_MANY_INVITATIONS or
   * ADDRESS_INVITED_TOO_OFTEN): per brand and per client address, and per invited address.
   */
  invite(actor: User, input: { email: string; role: string; locale: string; ip: string }): Promise<void>;
  /** Cancels a pending invitation: its link stops working. Another brand's is "not found". */
  cancelInvitation(actor: User, invitationId: string): Promise<void>;
  /** The person is looked up first: another brand's is "not found" whatever the role sent. */
  changeRole(actor: User, userId: string, role: string): Promise<User>;
  /** Their sessions end with them; the keys they created keep working (the creator is cleared). */
  remove(actor: User, userId: string): Promise<User>;
  /** For the confirmation page: a person of the actor's brand, else "not found". */
  find(actor: User, userId: string): Promise<User>;
}

/**
 * A brand's people as its owners manage them: list, invite (pending invitations, cancelled at
 * will), change a role, remove. Another
 * brand's person is "not found". Changes lock the brand's people and re-read the actor's role, so
 * two owners demoting each other at once cannot leave the brand without an owner.
 */
export function teamManagement(deps: {
  users: UserStore;
  transact: Transact;
  accounts: AccountService;
  clock: Clock;
  /**
   * Invitations sent, counted per brand and per client address (`invitations`), and per brand and
   * invited address (`perAddress`): an owner's form must not become a way to mail anyone at will.
   */
  limits: { invitations: RateLimiter; perAddress: RateLimiter };
}): TeamManagement {
  function mustOwn(user: User): void {
    if (user.role !== 'owner') throw new AppError('insufficient_scope', 'Only owners manage the team.');
  }

  /** Runs `change` on the locked team after the checks every change shares; returns the target. */
  async function change(
    actor: User,
    userId: string,
    apply: (
      stores: Stores,
      target: { id: string; role: Role },
      team: { id: string; role: Role }[],
    ) => Promise<void>,
  ): Promise<User> {
    mustOwn(actor);
    const found = USER_ID.test(userId) ? await deps.users.findById(userId) : null;
    if (!found || found.brandId !== actor.brandId) throw new AppError('not_found', 'No such person.');
    if (found.id === actor.id) throw new AppError('invalid_transition', NOT_YOURSELF);
    await deps.transact(async (stores) => {
      const team = await stores.users.lockBrand(actor.brandId);
      const me = team.find((u) => u.id === actor.id);
      if (me?.role !== 'owner') throw new AppError('insufficient_scope', 'Only owners manage the team.');
      const target = team.find((u) => u.id === found.id);
      if (!target) throw new AppError('not_found', 'No such person.');
      await apply(stores, target, team);
    });
    const { passwordHash: _, ...user } = found;
    return user;
  }

  const ownersLeft = (team: { id: string; role: Role }[], without: string) =>
    team.filter((u) => u.role === 'owner' && u.id !== without).length;

  return {
    async list(actor: User): Promise<User[]> {
      mustOwn(actor);
      return deps.users.listForBrand(actor.brandId);
    },

    async invitations(actor: User): Promise<TeamInvitation[]> {
      mustOwn(actor);
      return deps.transact((stores) => stores.teamInvitations.listForBrand(actor.brandId, deps.clock()));
    },

    async invite(actor: User, input: { email: string; role: string; locale: string; ip: string }) {
      mustOwn(actor);
      // A mistyped address is the form's own error, before anything is counted.
      const email = validateEmail(input.email).toLowerCase();
      if (!isRole(input.role)) throw invalidField('role', 'must be owner, developer or finance');
      const { invitations, perAddress } = deps.limits;
      const allowed =
        (await invitations.take(`invite:brand:${actor.brandId}`)).allowed &&
        (await invitations.take(`invite:ip:${input.ip}`)).allowed;
      if (!allowed) throw new AppError('rate_limited', TOO_MANY_INVITATIONS);
      // Keyed by the brand too: another brand's invitations of the same address tell nothing.
      if (!(await perAddress.take(`invite:to:${actor.brandId}:${email}`)).allowed)
        throw new AppError('rate_limited', ADDRESS_INVITED_TOO_OFTEN);
      await deps.accounts.inviteMember({
        brandId: actor.brandId,
        brandName: actor.brandName,
        invitedBy: actor.id,
        email: input.email,
        role: input.role,
        locale: input.locale,
      });
    },

    async cancelInvitation(actor: User, invitationId: string): Promise<void> {
      mustOwn(actor);
      const gone =
        INVITATION_ID.test(invitationId) &&
        (await deps.transact((stores) => stores.teamInvitations.delete(actor.brandId, invitationId)));
      if (!gone) throw new AppError('not_found', 'No such invitation.');
    },

    changeRole(actor: User, userId: string, role: string): Promise<User> {
      return change(actor, userId, async (stores, target, team) => {
        if (!isRole(role)) throw invalidField('role', 'must be owner, developer or finance');
        if (role !== 'owner' && ownersLeft(team, target.id) === 0)
          throw new AppError('invalid_transition', LAST_OWNER);
        await stores.users.setRole(target.id, role);
      });
    },

    remove(actor: User, userId: string): Promise<User> {
      return change(actor, userId, async (stores, target, team) => {
        if (ownersLeft(team, target.id) === 0) throw new AppError('invalid_transition', LAST_OWNER);
        await stores.users.delete(target.id);
      });
    },

    async find(actor: User, userId: string): Promise<User> {
      mustOwn(actor);
      const found = USER_ID.test(userId) ? await deps.users.findById(userId) : null;
      if (!found || found.brandId !== actor.brandId) throw new AppError('not_found', 'No such person.');
      const { passwordHash: _, ...user } = found;
      return user;
    },
  };
}
