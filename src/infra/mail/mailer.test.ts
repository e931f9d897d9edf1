import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMailer } from './mailer.ts';

let dir: string | null = null;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the mailer without SMTP_URL', () => {
  it('writes each message as an .eml file and logs its link', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'dlv-mail-'));
    const logged: string[] = [];
    const mailer = createMailer({
      smtpUrl: null,
      from: 'Delivery Orders <no-reply@example.com>',
      dropDir: path.join(dir, 'mail'),
      log: (m) => logged.push(m),
    });
    const link = 'http://127.0.0.1:3000/account/verify?token=abc';
    await mailer.send({ to: 'ana@shop.example.com', subject: 'Confirm', text: `Open:\n\n${link}\n`, link });
    const files = await readdir(path.join(dir, 'mail'));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/\.eml$/);
    const eml = await readFile(path.join(dir, 'mail', files[0]!), 'utf8');
    expect(eml).toMatch(/^To: ana@shop\.example\.com$/m);
    expect(eml).toMatch(/^Subject: Confirm$/m);
    expect(eml).toContain(link);
    expect(logged).toEqual([expect.stringContaining(`link: ${link}`)]);
    mailer.close();
  });
});
