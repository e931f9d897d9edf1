import type { AccountMail, UserStore } from '../domain/accounts/ports.ts';
import { canManageKeys } from '../domain/accounts/user.ts';
import type { Author } from '../domain/audit/actor.ts';
import type { AuditStore } from '../domain/audit/ports.ts';
import { AppError } from '../errors.ts';
import type { Connection } from './connection.ts';
import type { ConnectionsService } from './connections-service.ts';
import type { ConnectorResync } from './resync.ts';

const labelOf = (platform: string) => CONNECTORS.find((c) => c.platform === platform)?.label ?? platform;

import { CONNECTORS } from './registry.ts';

/** What a link with a sync problem needs: read again, or linked again by its brand. */
export type LinkRemedy = 'resync' | 'tell_brand';

/**
 * The remedy of a link the console lists: an active link whose last sync failed is read again
 * (where its platform can: the polled ones); a link the shop refused (broken), one uninstalled or
 * disconnected from the shop's side, or an active one its platform cannot re-read, needs its brand
 * to link it again: the brand is told. None for a link disconnected on purpose.
 */
export function remedyOf(connection: Connection, canResync: boolean): LinkRemedy | null {
  if (connection.status === 'active') {
    if (!connection.syncError) return null;
    return canResync ? 'resync' : 'tell_brand';
  }
  if (connection.status === 'broken') return 'tell_brand';
  return /^disconnected by /.test(connection.statusReason ?? '') ? null : 'tell_brand';
}

/**
 * The operator's two actions on a shop link with sync problems (the console's Exceptions), each
 * through the connectors' own services and recorded in the audit trail: `retry` re-reads the
 * shop's orders since the link's mark (`dlv connectors resync`), `tellBrand` e-mails the brand's
 * people who manage its shops what stopped and where to link it again.
 */
export function shopLinkAttention(deps: {
  connections: ConnectionsService;
  resync: ConnectorResync;
  users: Pick<UserStore, 'listForBrand'>;
  mail: Pick<AccountMail, 'shopLinkNeedsAttention'>;
  audit: Pick<AuditStore, 'record'>;
}) {
  return {
    remedyOf: (connection: Connection) => remedyOf(connection, deps.resync.supports(connection.platform)),

    async retry(id: string, by: Author): Promise<{ connection: Connection; outcome: string }> {
      const connection = await deps.connections.get(null, id);
      if (remedyOf(connection, deps.resync.supports(connection.platform)) !== 'resync')
        throw new AppError('invalid_transition', `${connection.shop} is not a link to sync again.`);
      const done = await deps.resync.resync(null, id);
      await deps.audit.record({
        action: 'connection.resynced',
        by,
        object: { type: 'connection', id },
        brandId: connection.brandId,
        details: { platform: connection.platform, outcome: done.outcome.slice(0, 500) },
      });
      return { connection, outcome: done.outcome };
    },

    async tellBrand(id: string, by: Author): Promise<{ connection: Connection; told: number }> {
      const connection = await deps.connections.get(null, id);
      if (remedyOf(connection, deps.resync.supports(connection.platform)) === null)
        throw new AppError(
          'invalid_transition',
          `${connection.shop} has no problem to tell its brand about.`,
        );
      // Who may link a shop again (the account area's rule: not finance), their address confirmed.
      const people = (await deps.users.listForBrand(connection.brandId)).filter(
        (u) => canManageKeys(u.role) && u.emailVerifiedAt !== null,
      );
      if (people.length === 0)
        throw new AppError('invalid_transition', 'The brand has nobody with a confirmed address to tell.');
      const link = {
        shop: connection.shop,
        platform: labelOf(connection.platform),
        reason: connection.statusReason ?? connection.syncError ?? connection.status,
      };
      // The brand's people are French companies' staff; the message reads in French (the account
      // area's default), its link opens the account in the reader's own language.
      for (const person of people) await deps.mail.shopLinkNeedsAttention(person.email, link, 'fr');
      await deps.audit.record({
        action: 'connection.brand_notified',
        by,
        object: { type: 'connection', id },
        brandId: connection.brandId,
        details: { platform: connection.platform, status: connection.status, recipients: people.length },
      });
      return { connection, told: people.length };
    },
  };
}

export type ShopLinkAttention = ReturnType<typeof shopLinkAttention>;
