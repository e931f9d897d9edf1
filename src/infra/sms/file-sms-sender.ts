import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { OutgoingSms, SmsSender } from '../../domain/recipients/ports.ts';
import { systemClock } from '../../domain/shared/clock.ts';

export interface FileSmsSenderOptions {
  /** `DATA_DIR/sms`. */
  dropDir: string;
  log: (message: string) => void;
  clock?: () => Date;
}

/**
 * Without Twilio (development, a demo): each SMS is written to `DATA_DIR/sms/<time>-<rand>.txt`
 * (readable by the service's user only: it holds a number and a tracking link) and logged, as the
 * mailer does with `.eml` files, so a local run can follow what a recipient would get. Its id is
 * the file's name: no delivery report ever names it.
 */
export function fileSmsSender(options: FileSmsSenderOptions): SmsSender {
  const clock = options.clock ?? systemClock;
  return {
    async send(sms: OutgoingSms) {
      const now = clock();
      const name = `${now.getTime()}-${randomBytes(4).toString('hex')}.txt`;
      await mkdir(options.dropDir, { recursive: true, mode: 0o700 });
      const file = path.join(options.dropDir, name);
      const text = `From: ${sms.from}\nTo: ${sms.to}\nDate: ${now.toISOString()}\n\n${sms.text}\n`;
      // `wx`: a name already taken is an error, never an SMS written over another.
      await writeFile(file, text, { mode: 0o600, flag: 'wx' });
      options.log(`sms to ${sms.to} written to ${file}`);
      return { providerId: `file:${name}` };
    },
  };
}
