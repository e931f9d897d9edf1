import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import type { Config } from '../../src/config.ts';
import { buildTestApp, type TestApp } from './app.ts';

interface ReceivedMail {
  to: string[];
  raw: string;
}

/**
 * A real SMTP server on loopback that keeps what it receives (no TLS, no auth: a test inbox).
 * `refuse(address, code, text)` makes it answer RCPT TO for that address with `code text` (550
 * "5.1.1 user unknown", 451 "4.2.0 try later"…) until `accept(address)`.
 */
export async function startSmtpReceiver() {
  const inbox: ReceivedMail[] = [];
  const refusals = new Map<string, { code: number; text: string }>();
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, callback) {
      const refusal = refusals.get(address.address.toLowerCase());
      if (!refusal) return callback();
      callback(Object.assign(new Error(refusal.text), { responseCode: refusal.code }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        inbox.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    inbox,
    refuse(address: string, code: number, text: string) {
      refusals.set(address.toLowerCase(), { code, text });
    },
    accept(address: string) {
      refusals.delete(address.toLowerCase());
    },
    /** The link of the last message to `to` whose path contains `path` (quoted-printable undone). */
    linkTo(to: string, path: string): string | null {
      for (const mail of [...inbox].reverse()) {
        if (!mail.to.includes(to)) continue;
        const body = mail.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
        const match = body.match(new RegExp(`https?://\\S+${path}\\?token=[A-Za-z0-9_%-]+`));
        if (match) return match[0];
      }
      return null;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

type SmtpReceiver = Awaited<ReturnType<typeof startSmtpReceiver>>;
export type MailingTestApp = TestApp & { smtp: SmtpReceiver };

/**
 * The app with its e-mails going to an SMTP receiver of its own (`smtp`) and its links on
 * https://dlv.example.com, as the account area's tests want it; close() stops both.
 */
export async function buildMailingTestApp(config: Partial<Config> = {}): Promise<MailingTestApp> {
  const smtp = await startSmtpReceiver();
  let t: TestApp;
  try {
    t = await buildTestApp({
      config: { smtpUrl: smtp.url, publicBaseUrl: 'https://dlv.example.com', ...config },
    });
  } catch (err) {
    await smtp.close();
    throw err;
  }
  return {
    ...t,
    smtp,
    async close() {
      await t.close();
      await smtp.close();
    },
  };
}
