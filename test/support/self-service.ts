import type { FastifyServerOptions } from 'fastify';
import { simpleParser } from 'mailparser';
import { buildApp } from '../../src/app.ts';
import type { Config } from '../../src/config.ts';
import { createPool } from '../../src/db/pool.ts';
import { type Clock, createDeps } from '../../src/deps.ts';
import type { OutgoingSms, SmsSender } from '../../src/domain/recipients/ports.ts';
import type { TestApp } from './app.ts';
import { testConfig } from './app.ts';
import { startSmtpReceiver } from './smtp-receiver.ts';

/** An SmsSender kept in memory (the SMS part has the Twilio fake on loopback). */
function memorySms(): SmsSender & { sent: OutgoingSms[] } {
  const sent: OutgoingSms[] = [];
  let n = 0;
  return {
    sent,
    async send(sms) {
      sent.push(sms);
      return { providerId: `SM${String(++n).padStart(32, '0')}` };
    },
  };
}

export type SelfServiceTestApp = TestApp & {
  smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
  sms: ReturnType<typeof memorySms>;
  /** The 6-digit code of the last message to `to` (e-mail, read with mailparser; or SMS). */
  lastCode(to: string): Promise<string | null>;
};

/** The app with recipients' e-mails to a loopback SMTP receiver and SMS kept in memory. */
export async function buildSelfServiceApp(
  options: { clock?: Clock; config?: Partial<Config>; logger?: FastifyServerOptions['logger'] } = {},
): Promise<SelfServiceTestApp> {
  const smtp = await startSmtpReceiver();
  const sms = memorySms();
  // The service's own recipient mailer, to the loopback SMTP receiver.
  const config = testConfig({ smtpUrl: smtp.url, smsFrom: '+33700000000', ...options.config });
  const pool = createPool(config.databaseUrl!, 10);
  const deps = createDeps(config, pool, options.clock, { smsSender: sms });
  const app = await buildApp(deps, { logger: options.logger });
  await app.ready();
  return {
    app,
    deps,
    pool,
    smtp,
    sms,
    async lastCode(to) {
      const text = to.startsWith('+')
        ? sms.sent.filter((s) => s.to === to).at(-1)?.text
        : await (async () => {
            const mail = [...smtp.inbox].reverse().find((m) => m.to.includes(to));
            return mail ? (await simpleParser(mail.raw)).text : undefined;
          })();
      return text?.match(/\b\d{6}\b/)?.[0] ?? null;
    },
    async close() {
      await app.close();
      await pool.end();
      await smtp.close();
    },
  };
}
