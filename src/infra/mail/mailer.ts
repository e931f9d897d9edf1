import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Transporter } from 'nodemailer';
import type { Mailer } from '../../domain/accounts/ports.ts';

export type { Mailer };

export interface MailerOptions {
  smtpUrl: string | null;
  from: string;
  /** Where messages go when no SMTP server is configured: `DATA_DIR/mail`. */
  dropDir: string;
  log: (message: string) => void;
}

/**
 * SMTP (nodemailer) when `SMTP_URL` is set. Otherwise each message is written as an .eml file and
 * its link printed in the log, so a local `npm start` can follow sign-up and reset links.
 * nodemailer (about 13 MB once loaded) is loaded at the first message: an API process sends mail
 * only for the account area's sign-ups and resets, and most never do.
 */
export function createMailer(options: MailerOptions): Mailer {
  let transport: Promise<Transporter> | null = null;
  const transportOnce = () => {
    transport ??= import('nodemailer').then(({ default: nodemailer }) =>
      options.smtpUrl
        ? nodemailer.createTransport(options.smtpUrl)
        : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }),
    );
    return transport;
  };
  const close = () => {
    void transport?.then((t) => t.close());
  };
  if (options.smtpUrl) {
    return {
      async send(mail) {
        const smtp = await transportOnce();
        await smtp.sendMail({ from: options.from, to: mail.to, subject: mail.subject, text: mail.text });
      },
      close,
    };
  }
  return {
    async send(mail) {
      const stream = await transportOnce();
      const info = await stream.sendMail({
        from: options.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
      });
      await mkdir(options.dropDir, { recursive: true });
      const file = path.join(options.dropDir, `${Date.now()}-${randomBytes(4).toString('hex')}.eml`);
      await writeFile(file, info.message as Buffer, { mode: 0o600 });
      options.log(`mail to ${mail.to} written to ${file}${mail.link ? `; link: ${mail.link}` : ''}`);
    },
    close,
  };
}
