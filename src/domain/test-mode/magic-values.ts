import { MailError, type RecipientMailer, SmsError, type SmsSender } from '../recipients/ports.ts';

/**
 * Recipient values that make a test order's messages fail as a real provider would (docs/test-mode.md):
 * the development outbox refuses them permanently, so a developer sees the `failed` notification
 * their integration must handle. Only test orders reach this outbox; a live order's values are
 * never interpreted.
 */
const MAGIC_VALUES = {
  /** An SMS to this number is refused as an unreachable handset (Twilio's 30003 in spirit). */
  bouncingPhone: '+33600000013',
  /** A message to this address is refused as an unknown mailbox (`550 5.1.1`). */
  bouncingEmail: 'bounce@test.invalid',
  /** Outside Île-de-France: creation answers 422 `out_of_zone`, as live does with any such address. */
  outOfZoneAddress: '1 place Bellecour, 69002 Lyon',
} as const;

/**
 * The development outbox for test orders: messages are written where a development run writes
 * them (files under DATA_DIR, never SMTP nor the SMS provider), and the magic values bounce.
 */
export function testOutbox(files: { mailer: RecipientMailer; sms: SmsSender }): {
  mailer: RecipientMailer;
  sms: SmsSender;
} {
  return {
    mailer: {
      async send(mail) {
        if (mail.to.toLowerCase() === MAGIC_VALUES.bouncingEmail)
          throw new MailError('550 5.1.1 test mode: this mailbox bounces (magic value)', true);
        return files.mailer.send(mail);
      },
    },
    sms: {
      async send(sms) {
        if (sms.to === MAGIC_VALUES.bouncingPhone)
          throw new SmsError('test mode: this number bounces (magic value)', true, '30003');
        return files.sms.send(sms);
      },
    },
  };
}
