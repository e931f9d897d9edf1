import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { EINVOICE_STATUSES, type EInvoiceStatus } from '../../domain/einvoicing/einvoice-status.ts';
import type {
  EInvoicePlatform,
  OutgoingEInvoice,
  PaymentRecord,
  StatusUpdate,
  SubmissionReceipt,
} from '../../domain/einvoicing/ports.ts';
import { systemClock } from '../../domain/shared/clock.ts';

/**
 * The default platform, without an approved platform's account (development, a demo, a deployment
 * whose documents another tool carries): each issued document is written to `dir` as
 * `<number>.pdf` (its Factur-X) beside `<number>.json`, its status, as the mailer does with `.eml`
 * files. Whoever carries the documents (a person, a script speaking to a platform) writes the
 * statuses back into the `.json` (`status`, `reason`, `updated_at`): the sync job reads them. A
 * paid invoice's payment data is `<number>.payment.json`. Files are readable by the service's user
 * only (they hold the brands' invoices).
 */
interface DirectoryStatusFile {
  tracking_id: string;
  type_code: '380' | '381';
  sha256: string;
  status: EInvoiceStatus;
  reason: string | null;
  updated_at: string;
}

const EPOCH = new Date(0).toISOString();

export function directoryPlatform(options: {
  dir: string;
  clock?: () => Date;
  log?: (message: string) => void;
}): EInvoicePlatform {
  const clock = options.clock ?? systemClock;
  const file = (name: string) => path.join(options.dir, name);

  /** Written whole or not at all: a reader never sees half a status. */
  async function writeAtomically(name: string, content: string | Buffer): Promise<void> {
    await mkdir(options.dir, { recursive: true, mode: 0o700 });
    const partial = file(`.${name}.${randomBytes(4).toString('hex')}.tmp`);
    await writeFile(partial, content, { mode: 0o600, flag: 'wx' });
    await rename(partial, file(name));
  }

  async function readStatus(name: string): Promise<DirectoryStatusFile | null> {
    try {
      return JSON.parse(await readFile(file(name), 'utf8')) as DirectoryStatusFile;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  return {
    name: 'directory',

    async submit(document: OutgoingEInvoice): Promise<SubmissionReceipt> {
      const statusName = `${document.trackingId}.json`;
      const existing = await readStatus(statusName);
      if (existing) {
        return {
          flowId: `file:${document.trackingId}`,
          at: new Date(existing.updated_at),
          alreadySubmitted: true,
          status: existing.status === 'rejected' ? 'rejected' : 'deposited',
          reason: existing.reason,
        };
      }
      const at = clock();
      // The document first, its status last: a status file always has its document beside it.
      await writeAtomically(`${document.trackingId}.pdf`, document.pdf);
      const status: DirectoryStatusFile = {
        tracking_id: document.trackingId,
        type_code: document.typeCode,
        sha256: document.sha256,
        status: 'deposited',
        reason: null,
        updated_at: at.toISOString(),
      };
      await writeAtomically(statusName, `${JSON.stringify(status, null, 2)}\n`);
      options.log?.(`e-invoice ${document.trackingId} written to ${file(`${document.trackingId}.pdf`)}`);
      return {
        flowId: `file:${document.trackingId}`,
        at,
        alreadySubmitted: false,
        status: 'deposited',
        reason: null,
      };
    },

    async reportPayment(record: PaymentRecord) {
      const name = `${record.invoiceNumber}.payment.json`;
      const at = clock();
      try {
        await readFile(file(name));
      } catch {
        await writeAtomically(
          name,
          `${JSON.stringify({ ...record, reported_at: at.toISOString() }, null, 2)}\n`,
        );
      }
      return { flowId: `file:${name}`, at };
    },

    async updates(cursor: string | null) {
      const since = cursor ?? EPOCH;
      let names: string[];
      try {
        names = await readdir(options.dir);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { updates: [], cursor: since };
        throw err;
      }
      const updates: StatusUpdate[] = [];
      let next = since;
      for (const name of names) {
        if (!/^[FA]\d{4}-\d{6}\.json$/.test(name)) continue;
        const status = await readStatus(name);
        if (!status || !(status.updated_at > since)) continue;
        if (!(EINVOICE_STATUSES as readonly string[]).includes(status.status)) continue;
        updates.push({
          trackingId: status.tracking_id,
          status: status.status,
          reason: status.reason,
          at: new Date(status.updated_at),
        });
        if (status.updated_at > next) next = status.updated_at;
      }
      updates.sort((a, b) => a.at.getTime() - b.at.getTime());
      return { updates, cursor: next };
    },
  };
}
