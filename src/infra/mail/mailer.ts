import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';

interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  /** The one link the message carries: logged when mail is only written to disk. */
  link: string | null;
}

export interface Mailer {
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

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
 */
export function createMailer(options: MailerOptions): Mailer {
  if (options.smtpUrl) {
    const transport = nodemailer.createTransport(options.smtpUrl);
    return {
      async send(mail) {
        await transport.sendMail({ from: options.from, to: mail.to, subject: mail.subject, text: mail.text });
      },
      close: () => transport.close(),
    };
  }
  const stream = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(mail) {
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
    close: () => stream.close(),
  };
}
