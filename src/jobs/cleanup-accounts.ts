import type { AccountService } from '../domain/accounts/account-service.ts';
import type { CourierService } from '../domain/couriers/courier-service.ts';
import type { OperatorSessions } from '../domain/operators/operator-sessions.ts';
import { defineJob } from './job.ts';
import { CLEANUP_ACCOUNTS_SPEC } from './job-names.ts';

/**
 * Hourly: sessions idle for 12 h or 7 days old, one-time tokens expired or used, and team
 * invitations expired (no longer listed, their links refused) are dead anyway; drop them. Couriers'
 * sessions too (same limits), and operators' (30 minutes idle, 12 hours, 15 minutes for a setup one).
 */
export const CLEANUP_ACCOUNTS = defineJob({
  ...CLEANUP_ACCOUNTS_SPEC,
  schedule: '30 * * * * ?max=3',
  async run(
    deps: {
      accounts: Pick<AccountService, 'deleteExpired'>;
      couriers: Pick<CourierService, 'deleteExpired'>;
      operatorSessions: Pick<OperatorSessions, 'deleteExpired'>;
    },
    _payload,
    helpers,
  ) {
    const deleted = await deps.accounts.deleteExpired();
    const couriers = await deps.couriers.deleteExpired();
    if (couriers > 0) helpers.logger.info(`deleted ${couriers} expired courier sessions`);
    const operators = await deps.operatorSessions.deleteExpired();
    if (operators > 0) helpers.logger.info(`deleted ${operators} expired operator sessions`);
    if (deleted.sessions + deleted.tokens + deleted.invitations > 0) {
      helpers.logger.info(
        `deleted ${deleted.sessions} expired sessions, ${deleted.tokens} dead account tokens and ${deleted.invitations} expired team invitations`,
      );
    }
  },
});
