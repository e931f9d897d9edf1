import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fileSmsSender } from './file-sms-sender.ts';

let dir: string | null = null;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the SMS sender without Twilio', () => {
  it('writes each SMS to DATA_DIR/sms, readable by the service only, and logs where', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'dlv-sms-'));
    const logged: string[] = [];
    const sender = fileSmsSender({
      dropDir: path.join(dir, 'sms'),
      log: (m) => logged.push(m),
      clock: () => new Date('2026-11-26T09:00:00Z'),
    });
    const sms = {
      to: '+33612345678',
      from: '+33757000001',
      text: 'Maison Test: livré. https://x.test/track/t',
    };
    const first = await sender.send(sms);
    const second = await sender.send({ ...sms, text: 'encore' });
    expect(first.providerId).not.toBe(second.providerId);
    const files = (await readdir(path.join(dir, 'sms'))).sort();
    expect(files).toHaveLength(2);
    for (const file of files) expect(file).toMatch(/^1795683600000-[0-9a-f]{8}\.txt$/);
    const name = first.providerId.replace(/^file:/, '');
    const written = path.join(dir, 'sms', name);
    expect(await readFile(written, 'utf8')).toBe(
      'From: +33757000001\nTo: +33612345678\nDate: 2026-11-26T09:00:00.000Z\n\nMaison Test: livré. https://x.test/track/t\n',
    );
    expect((await stat(written)).mode & 0o777).toBe(0o600);
    expect(logged[0]).toBe(`sms to +33612345678 written to ${written}`);
  });
});
