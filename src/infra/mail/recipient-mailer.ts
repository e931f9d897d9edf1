import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { SendMailOptions, Transporter } from 'nodemailer';
import { MailError, type RecipientEmail, type RecipientMailer } from '../../domain/recipients/ports.ts';

interface DkimKey {
  /** The signing domain (`d=`): MAIL_FROM's domain, or one it aligns with. */
  domain: string;
  selector: string;
  /** PEM. */
  privateKey: string;
}

export interface RecipientMailerOptions {
  smtpUrl: string | null;
  /** MAIL_FROM: its address is the From address; the display name is each brand's. */
  mailFrom: string;
  dkim: DkimKey | null;
  /** Where messages go when no SMTP server is configured: `DATA_DIR/mail`. */
  dropDir: string;
  log: (message: string) => void;
}

/**
 * The header fields the DKIM signature covers: nodemailer's default list (RFC 6376 §5.4's) and
 * `List-Unsubscribe-Post`, which that list lacks. RFC 8058 §4 wants both one-click fields signed:
 * a receiver offers one-click unsubscribe only when neither can have been added or changed on the way.
 */
const DKIM_SIGNED_FIELDS = [
  'From',
  'Sender',
  'Reply-To',
  'Subject',
  'Date',
  'Message-ID',
  'To',
  'Cc',
  'MIME-Version',
  'Content-Type',
  'Content-Transfer-Encoding',
  'Content-ID',
  'Content-Description',
  'Resent-Date',
  'Resent-From',
  'Resent-Sender',
  'Resent-To',
  'Resent-Cc',
  'Resent-Message-ID',
  'In-Reply-To',
  'References',
  'List-Id',
  'List-Help',
  'List-Unsubscribe',
  'List-Unsubscribe-Post',
  'List-Subscribe',
  'List-Post',
  'List-Owner',
  'List-Archive',
].join(':');

/** The address of `Name <address>` (or the bare address). */
function addressOf(mailFrom: string): string {
  return (mailFrom.match(/<([^<>]+)>\s*$/)?.[1] ?? mailFrom).trim();
}

/** What nodemailer's SMTP client says of a refused command. */
interface SmtpFailure {
  /** The server's reply code (550, 451…); absent when it never answered. */
  responseCode?: number;
  /** The server's reply line, code first (`550 5.1.1 <…>: user unknown`). */
  response?: string;
  /** The command refused (`RCPT TO`, `DATA`, `MAIL FROM`, `AUTH PLAIN`…). */
  command?: string;
}

/** Commands whose 5yz says "this recipient / this message, never": the others are our set-up's. */
const MESSAGE_COMMANDS = new Set(['RCPT TO', 'DATA']);

/**
 * A refusal as the notifications record it: the server's own reply (never the recipient's address,
 * which the brand has on the order and a log need not hold), permanent for a 5yz to the recipient
 * or the message. A 5yz to MAIL FROM or AUTH is our configuration's, the same for every message:
 * retried (and, past the last attempt, failed) so a fixed relay still sends them. Anything
 * without a reply (connection refused, timeout) is retried.
 */
function mailError(err: unknown, to: string): unknown {
  const failure = err as SmtpFailure;
  if (!(err instanceof Error) || typeof failure.responseCode !== 'number') return err;
  const address = new RegExp(to.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi');
  const reply = (failure.response ?? `${failure.responseCode} ${err.message}`)
    .replace(address, '…')
    .replace(/\s+/g, ' ')
    .trim();
  const permanent =
    failure.responseCode >= 500 && failure.responseCode < 600 && MESSAGE_COMMANDS.has(failure.command ?? '');
  return new MailError(reply, permanent);
}

/**
 * The recipients' e-mails (decision 0007) through nodemailer: SMTP at `SMTP_URL`, else an .eml
 * file under `DATA_DIR/mail` (logged) as the account e-mails do. Each is multipart/alternative
 * (text and HTML; the logo inline as `cid:logo`), from the brand's name at our address, with the
 * RFC 8058 one-click unsubscribe headers, and DKIM-signed when a key is configured: a recipient's
 * provider then trusts the brand's name beside our domain.
 */
export function createRecipientMailer(options: RecipientMailerOptions): RecipientMailer {
  const from = addressOf(options.mailFrom);
  let transport: Promise<Transporter> | null = null;
  const transportOnce = () => {
    transport ??= import('nodemailer').then(({ default: nodemailer }) => {
      const dkim = options.dkim
        ? {
            domainName: options.dkim.domain,
            keySelector: options.dkim.selector,
            privateKey: options.dkim.privateKey,
            headerFieldNames: DKIM_SIGNED_FIELDS,
          }
        : undefined;
      return options.smtpUrl
        ? nodemailer.createTransport(options.smtpUrl, { dkim })
        : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix', dkim });
    });
    return transport;
  };

  const message = (mail: RecipientEmail): SendMailOptions => ({
    from: { name: mail.fromName, address: from },
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    headers: mail.unsubscribeUrl
      ? {
          'List-Unsubscribe': `<${mail.unsubscribeUrl}>`,
          'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
        }
      : {},
    attachments: (mail.inline ?? []).map((part) => ({
      cid: part.cid,
      filename: part.filename,
      contentType: part.contentType,
      content: part.content,
      contentDisposition: 'inline' as const,
    })),
  });

  return {
    async send(mail) {
      const transporter = await transportOnce();
      const info = await transporter.sendMail(message(mail)).catch((err: unknown) => {
        throw mailError(err, mail.to);
      });
      if (!options.smtpUrl) {
        await mkdir(options.dropDir, { recursive: true });
        const file = path.join(options.dropDir, `${Date.now()}-${randomBytes(4).toString('hex')}.eml`);
        await writeFile(file, info.message as Buffer, { mode: 0o600 });
        options.log(`recipient mail written to ${file}`);
      }
      return { messageId: String(info.messageId) };
    },
  };
}
