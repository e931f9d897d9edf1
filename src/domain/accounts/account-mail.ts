import type { Mailer } from '../../infra/mail/mailer.ts';
import { type Locale, translate } from './messages.ts';

/** The account e-mails: each a short text with one link, in the reader's language. */
export function accountMail(mailer: Mailer, baseUrl: string) {
  const link = (path: string, token: string) =>
    `${baseUrl}/account/${path}?token=${encodeURIComponent(token)}`;
  const send = (to: string, locale: string, subject: string, body: string, url: string | null) => {
    const t = translate(locale as Locale);
    return mailer.send({
      to,
      subject: t(subject),
      text: `${t(body)}\n\n${url ?? `${baseUrl}/account/sign-in`}\n`,
      link: url,
    });
  };
  return {
    verifyEmail: (to: string, token: string, locale: string) =>
      send(to, locale, 'mail.verify.subject', 'mail.verify.body', link('verify', token)),
    resetPassword: (to: string, token: string, locale: string) =>
      send(to, locale, 'mail.reset.subject', 'mail.reset.body', link('reset', token)),
    invite: (to: string, token: string, locale: string) =>
      send(to, locale, 'mail.invite.subject', 'mail.invite.body', link('invite', token)),
    accountExists: (to: string, locale: string) =>
      send(to, locale, 'mail.exists.subject', 'mail.exists.body', null),
  };
}

export type AccountMail = ReturnType<typeof accountMail>;
