import { defineJob } from './job.ts';

/**
 * The password-reset e-mail, sent after the form has answered: the form does the same work for
 * every address (it queues this job), so its answer and its timing say nothing of who has an
 * account. The job finds out, and mails a link only when there is one.
 */
export const ACCOUNT_RESET_MAIL = defineJob({
  name: 'account_reset_mail',
  payloadVersion: 1,
  fields: ['email', 'locale'],
  maxAttempts: 5,
  async run(deps, payload) {
    await deps.accounts.sendResetLink(payload.email, payload.locale);
  },
});
