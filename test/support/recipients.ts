import { randomBytes, randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { type ParsedMail, simpleParser } from 'mailparser';
import { buildApp } from '../../src/app.ts';
import type { Config } from '../../src/config.ts';
import { createPool } from '../../src/db/pool.ts';
import { type Clock, createDeps, type Deps } from '../../src/deps.ts';
import { addressDigest, keyedAddressKey } from '../../src/domain/recipients/address-key.ts';
import type {
  Channel,
  OutgoingSms,
  RecipientSettings,
  SmsSender,
} from '../../src/domain/recipients/ports.ts';
import type { ScanActor } from '../../src/domain/scans/ports.ts';
import { taskList } from '../../src/jobs/index.ts';
import type { JobHelpers } from '../../src/jobs/job.ts';
import { NOTIFY_RECIPIENT_SPEC } from '../../src/jobs/job-names.ts';
import { testConfig } from './app.ts';
import { testOperator } from './audit.ts';
import { queuedJobs, runQueuedJobs } from './queued-jobs.ts';
import { createScratchDatabase } from './scratch-database.ts';
import { startSmtpReceiver } from './smtp-receiver.ts';

export const BASE = 'https://dlv.example.com';
const OPERATOR: ScanActor = { courierId: null, locale: 'en', by: testOperator };

/**
 * An SmsSender that keeps what it is given; `failWith` decides the next answers (an error to throw,
 * and what the provider's adapter does before throwing it, e.g. keep an opt-out).
 */
function recordingSmsSender() {
  const sent: OutgoingSms[] = [];
  const failures: { err: Error; first?: (sms: OutgoingSms) => Promise<void> }[] = [];
  const sender: SmsSender = {
    async send(sms) {
      const failure = failures.shift();
      if (failure) {
        await failure.first?.(sms);
        throw failure.err;
      }
      sent.push(sms);
      return { providerId: `SM${randomBytes(16).toString('hex')}` };
    },
  };
  return {
    sender,
    sent,
    failWith: (err: Error, first?: (sms: OutgoingSms) => Promise<void>) => failures.push({ err, first }),
  };
}

export type RecipientsStage = Awaited<ReturnType<typeof recipientsStage>>;

/**
 * The app with a real SMTP receiver of its own on loopback, an in-test SMS sender and a clock the
 * test moves; the links on https://dlv.example.com.
 *
 * On a scratch database of its own unless `config.databaseUrl` names one (a second stage on the
 * first one's data): test files that run a real worker on the shared database would otherwise
 * claim this stage's notification jobs and send them through their own SMTP receiver, and the
 * jobs the test runs by hand would be gone.
 */
export async function recipientsStage(options: { config?: Partial<Config>; start?: string } = {}) {
  const scratch = options.config?.databaseUrl === undefined ? await createScratchDatabase() : null;
  const smtp = await startSmtpReceiver();
  const sms = recordingSmsSender();
  let now = new Date(options.start ?? '2026-11-24T09:00:00Z');
  const clock: Clock = () => now;
  const config = testConfig({
    ...(scratch && { databaseUrl: scratch.url }),
    smtpUrl: smtp.url,
    publicBaseUrl: BASE,
    opsToken: 'ops-secret-token-0123456789abcdef',
    smsFrom: '+33757000000',
    ...options.config,
  });
  const databaseUrl = config.databaseUrl!;
  const pool = createPool(databaseUrl, 5);
  const deps = createDeps(config, pool, clock, { smsSender: sms.sender });
  const app: FastifyInstance = await buildApp(deps);
  await app.ready();
  return {
    app,
    deps,
    pool,
    smtp,
    sms,
    databaseUrl,
    setNow(iso: string) {
      now = new Date(iso);
    },
    async close() {
      await app.close();
      await pool.end();
      await smtp.close();
      await scratch?.drop();
    },
  };
}

/** The brand's recipient settings: the defaults with `changes`. */
export async function setRecipientSettings(
  deps: Deps,
  brandId: string,
  changes: Partial<Omit<RecipientSettings, 'brandId' | 'logoSha256' | 'updatedAt'>>,
): Promise<void> {
  const current = await deps.recipientSettingsStore.get(brandId);
  await deps.recipientSettingsStore.save({
    brandId,
    emailSteps: current.emailSteps,
    smsSteps: current.smsSteps,
    senderName: current.senderName,
    colour: current.colour,
    locale: current.locale,
    shopNotifies: current.shopNotifies,
    ...changes,
  });
}

/** The brand's events, oldest first. */
export async function eventsOf(deps: Deps, brandId: string): Promise<{ id: string; type: string }[]> {
  const { rows } = await deps.pool.query<{ id: string; type: string }>(
    'SELECT id, type FROM outbox_events WHERE brand_id = $1 ORDER BY seq',
    [brandId],
  );
  return rows;
}

/**
 * Runs the brand's queued notification jobs (only its own: other test files share the queue), as
 * a worker would; returns how many ran.
 */
export async function runNotifications(deps: Deps, brandId: string): Promise<number> {
  let ran = 0;
  for (const event of await eventsOf(deps, brandId))
    ran += await runQueuedJobs(deps, deps.pool, NOTIFY_RECIPIENT_SPEC.name, { event_id: event.id });
  return ran;
}

/** How many notification jobs wait for the brand's events. */
export async function queuedNotifications(deps: Deps, brandId: string): Promise<number> {
  let n = 0;
  for (const event of await eventsOf(deps, brandId))
    n += await queuedJobs(deps.pool, NOTIFY_RECIPIENT_SPEC.name, { event_id: event.id });
  return n;
}

/** The job for one event, run again (as the queue does after a failure), on its `attempt`. */
export function runNotifyJob(deps: Deps, eventId: string, attempt = { attempts: 2, max_attempts: 25 }) {
  const helpers = {
    logger: { info() {}, debug() {} },
    job: { id: '1', payload: {}, job_queue_id: null, ...attempt },
  } as unknown as JobHelpers;
  return taskList(deps)[NOTIFY_RECIPIENT_SPEC.name]!({ v: 1, event_id: eventId }, helpers);
}

/** The order's notifications as the table keeps them, oldest first. */
export async function notificationsOf(deps: Deps, ref: string) {
  const { rows } = await deps.pool.query<{
    step: string;
    channel: string;
    status: string;
    detail: string | null;
    provider_id: string | null;
    event_id: string | null;
  }>(
    `SELECT n.step, n.channel, n.status, n.detail, n.provider_id, n.event_id FROM recipient_notifications n
       JOIN orders o ON o.id = n.order_id WHERE o.tracking_ref = $1 ORDER BY n.created_at, n.channel`,
    [ref],
  );
  return rows;
}

/** The messages the receiver holds for `to`, parsed, oldest first. */
export async function mailsTo(stage: { smtp: { inbox: { to: string[]; raw: string }[] } }, to: string) {
  const parsed: (ParsedMail & { raw: string })[] = [];
  for (const mail of stage.smtp.inbox.filter((m) => m.to.includes(to)))
    parsed.push(Object.assign(await simpleParser(mail.raw), { raw: mail.raw }));
  return parsed;
}

/** A header of a raw message, unfolded. */
export function rawHeader(raw: string, name: string): string | null {
  const head = raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, ' ');
  const line = head.split(/\r?\n/).find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  return line ? line.slice(name.length + 1).trim() : null;
}

/** What the opt-out list holds for an address: its digest keyed with the deployment's opt-out key. */
export async function listKeyOf(deps: Pick<Deps, 'optOutKey'>, channel: Channel, address: string) {
  return keyedAddressKey(await deps.optOutKey.key(), addressDigest(channel, address));
}

/** The source of the address's opt-out as the table keeps it (null: none), found by its keyed digest. */
export async function optOutSource(
  deps: Pick<Deps, 'optOutKey' | 'pool'>,
  channel: Channel,
  address: string,
): Promise<string | null> {
  const { rows } = await deps.pool.query<{ source: string }>(
    'SELECT source FROM recipient_opt_outs WHERE channel = $1 AND address_hash = $2 AND keyed',
    [channel, await listKeyOf(deps, channel, address)],
  );
  return rows[0]?.source ?? null;
}

/** A unique address for one test's recipient. */
export const uniqueRecipient = () => `recipient-${randomUUID().slice(0, 8)}@example.com`;

/** The scans that move an order through pickup, hub and loading on `day` (Paris): out for delivery. */
export function toTheStreet(deps: Deps, refs: readonly string[], day: string, loadingTime = '09:00') {
  return deps.scans.apply(OPERATOR, [
    ...refs.flatMap((ref) => [
      { id: randomUUID(), context: 'pickup', code: ref, happened_at: `${day}T07:00:00+01:00` },
      { id: randomUUID(), context: 'hub', code: ref, happened_at: `${day}T08:00:00+01:00` },
    ]),
    ...refs.map((ref) => ({
      id: randomUUID(),
      context: 'loading',
      code: ref,
      happened_at: `${day}T${loadingTime}:00+01:00`,
    })),
  ]);
}

/** A door scan of `ref` at `at` (RFC 3339): delivered, or failed with `absent`. */
export function atTheDoor(deps: Deps, ref: string, at: string, outcome: 'delivered' | 'failed_attempt') {
  return deps.scans.apply(OPERATOR, [
    {
      id: randomUUID(),
      context: 'door',
      code: ref,
      happened_at: at,
      outcome,
      ...(outcome === 'delivered' ? { received_by: 'Jane' } : { reason: 'absent' }),
    },
  ]);
}

/** A round of `date` (no courier) with these orders' delivery stops, in this order. */
export async function roundOf(deps: Deps, date: string, refs: readonly string[]): Promise<string> {
  const id = `rnd_${randomBytes(8).toString('hex')}`;
  await deps.pool.query('INSERT INTO rounds (id, round_date, name) VALUES ($1, $2, $1)', [id, date]);
  for (const [i, ref] of refs.entries()) {
    await deps.pool.query(
      `INSERT INTO round_stops (round_id, round_date, position, kind, order_id)
        VALUES ($1, $2, $3, 'delivery', (SELECT id FROM orders WHERE tracking_ref = $4))`,
      [id, date, i + 1, ref],
    );
  }
  return id;
}
