import type { AccountService } from '../domain/accounts/account-service.ts';
import { defineJob } from './job.ts';
import { ACCOUNT_RESET_MAIL_SPEC } from './job-names.ts';

/**
 * The password-reset e-mail, sent after the form has answered: the form does the same work for
 * every address (it queues this job), so its answer and its timing say nothing of who has an
 * account. The job finds out, and mails a link only when there is one.
 */
export const ACCOUNT_RESET_MAIL = defineJob({
  ...ACCOUNT_RESET_MAIL_SPEC,
  async run(deps: { accounts: Pick<AccountService, 'sendResetLink'> }, payload) {
    await deps.accounts.sendResetLink(payload.email, payload.locale);
  },
});
