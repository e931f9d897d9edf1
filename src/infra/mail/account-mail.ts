import type { AccountMail, Mailer } from '../../domain/accounts/ports.ts';
import { translate } from '../../i18n/account.ts';

/** The account e-mails: each a short text with one link, in the reader's language. */
export function accountMail(mailer: Mailer, baseUrl: string): AccountMail {
  const link = (path: string, token: string) =>
    `${baseUrl}/account/${path}?token=${encodeURIComponent(token)}`;
  const send = (
    to: string,
    locale: string,
    subject: string,
    body: string,
    url: string | null,
    values: Record<string, string> = {},
  ) => {
    const t = translate(locale);
    return mailer.send({
      to,
      subject: t(subject, values),
      text: `${t(body, values)}\n\n${url ?? `${baseUrl}/account/sign-in`}\n`,
      link: url,
    });
  };
  return {
    verifyEmail: (to: string, token: string, locale: string) =>
      send(to, locale, 'mail.verify.subject', 'mail.verify.body', link('verify', token)),
    resetPassword: (to: string, token: string, locale: string) =>
      send(to, locale, 'mail.reset.subject', 'mail.reset.body', link('reset', token)),
    invite: (to: string, token: string, brandName: string, locale: string) =>
      send(to, locale, 'mail.invite.subject', 'mail.invite.body', link('invite', token), {
        brand: brandName,
      }),
    accountExists: (to: string, locale: string) =>
      send(to, locale, 'mail.exists.subject', 'mail.exists.body', null),
    inviteClash: (to: string, brandName: string, locale: string) =>
      send(to, locale, 'mail.inviteClash.subject', 'mail.inviteClash.body', null, { brand: brandName }),
    shopLinkNeedsAttention: (to, link, locale) =>
      send(to, locale, 'mail.shopLink.subject', 'mail.shopLink.body', `${baseUrl}/account/shops`, link),
  };
}
