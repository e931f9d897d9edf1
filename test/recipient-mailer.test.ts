import { createHash, generateKeyPairSync, verify } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { dkimVerify } from 'mailauth/lib/dkim/verify';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRecipientMailer } from '../src/infra/mail/recipient-mailer.ts';
import { rawHeader } from './support/recipients.ts';
import { startSmtpReceiver } from './support/smtp-receiver.ts';

const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const PEM = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
// A 1×1 PNG: what the logo's bytes are does not matter here, only that they travel inline.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

const MAIL = {
  to: 'jane@example.com',
  fromName: 'Maison Éole',
  subject: 'Maison Éole: your parcel arrives today',
  text: 'Our courier will come today between 10:15 and 12:15.\n',
  html: '<p>Our courier will come today between 10:15 and 12:15.</p><img src="cid:logo" alt="Maison Éole">',
  unsubscribeUrl: 'https://dlv.example.com/unsubscribe/abc',
  inline: [{ cid: 'logo', filename: 'logo.png', contentType: 'image/png', content: PNG }],
};

let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
beforeAll(async () => {
  smtp = await startSmtpReceiver();
});
afterAll(() => smtp.close());

/** The tags of a DKIM-Signature header (`a=…; b=…`), whitespace removed from the values. */
function dkimTags(value: string): Record<string, string> {
  return Object.fromEntries(
    value.split(';').flatMap((part) => {
      const at = part.indexOf('=');
      return at < 0 ? [] : [[part.slice(0, at).trim(), part.slice(at + 1).replace(/\s+/g, '')]];
    }),
  );
}

/** RFC 6376 §3.4.4, relaxed body canonicalization. */
function relaxedBody(body: string): string {
  const lines = body.split('\r\n').map((line) => line.replace(/[ \t]+/g, ' ').replace(/ $/, ''));
  while (lines.length > 0 && lines.at(-1) === '') lines.pop();
  return lines.length === 0 ? '' : `${lines.join('\r\n')}\r\n`;
}

/** RFC 6376 §3.4.2, relaxed header canonicalization of `Name: value` (unfolded). */
const relaxedHeader = (line: string): string => {
  const at = line.indexOf(':');
  return `${line.slice(0, at).trim().toLowerCase()}:${line
    .slice(at + 1)
    .replace(/\r\n(?=[ \t])/g, '')
    .replace(/[ \t]+/g, ' ')
    .trim()}`;
};

describe('RecipientMailer', () => {
  it('sends multipart text + HTML from the brand’s name at our address, the logo inline, the one-click headers', async () => {
    const mailer = createRecipientMailer({
      smtpUrl: smtp.url,
      mailFrom: 'Delivery Orders <no-reply@livraison-dlv.fr>',
      dkim: null,
      dropDir: '/nonexistent',
      log: () => {},
    });
    const { messageId } = await mailer.send(MAIL);
    const raw = smtp.inbox.at(-1)!.raw;
    const parsed = await simpleParser(raw);
    expect(parsed.messageId).toBe(messageId);
    expect(parsed.from?.value).toEqual([{ name: 'Maison Éole', address: 'no-reply@livraison-dlv.fr' }]);
    expect(parsed.subject).toBe(MAIL.subject);
    expect(parsed.text).toBe(MAIL.text);
    expect(parsed.html).toContain('between 10:15 and 12:15');
    const logo = parsed.attachments.find((a) => a.cid === 'logo');
    expect(logo?.contentType).toBe('image/png');
    expect(logo?.contentDisposition).toBe('inline');
    expect(logo?.content.equals(PNG)).toBe(true);
    // The text and HTML are alternatives, the HTML related to its inline image.
    expect(raw).toMatch(/multipart\/related/);
    expect(raw).toMatch(/multipart\/alternative/);
    expect(rawHeader(raw, 'List-Unsubscribe')).toBe('<https://dlv.example.com/unsubscribe/abc>');
    expect(rawHeader(raw, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    expect(rawHeader(raw, 'DKIM-Signature')).toBeNull();
  });

  it('signs with DKIM when configured: the body hash and the signature verify with the public key', async () => {
    const mailer = createRecipientMailer({
      smtpUrl: smtp.url,
      mailFrom: 'no-reply@livraison-dlv.fr',
      dkim: { domain: 'livraison-dlv.fr', selector: 'dlv2026', privateKey: PEM },
      dropDir: '/nonexistent',
      log: () => {},
    });
    await mailer.send(MAIL);
    const raw = smtp.inbox.at(-1)!.raw.replace(/\r?\n/g, '\r\n');
    const signature = rawHeader(raw, 'DKIM-Signature')!;
    const tags = dkimTags(signature);
    expect(tags).toMatchObject({
      a: 'rsa-sha256',
      d: 'livraison-dlv.fr',
      s: 'dlv2026',
      c: 'relaxed/relaxed',
    });

    const split = raw.indexOf('\r\n\r\n');
    const [head, body] = [raw.slice(0, split + 2), raw.slice(split + 4)];
    expect(tags.bh).toBe(createHash('sha256').update(relaxedBody(body)).digest('base64'));

    // The signed headers, each the last not yet used of its name, then the signature header without b=.
    const fields = head.split(/\r\n(?![ \t])/).filter(Boolean);
    const used = new Set<number>();
    const signed = tags
      .h!.split(':')
      .map((name) => {
        for (let i = fields.length - 1; i >= 0; i--) {
          if (used.has(i) || !fields[i]!.toLowerCase().startsWith(`${name.toLowerCase()}:`)) continue;
          used.add(i);
          return `${relaxedHeader(fields[i]!)}\r\n`;
        }
        return '';
      })
      .join('');
    const own = fields.find((f) => f.toLowerCase().startsWith('dkim-signature:'))!;
    // b= emptied (its value may be folded over several lines, now single spaces); bh= kept.
    const unsigned = signed + relaxedHeader(own).replace(/(;\s*b=)[^;]*/, '$1');
    expect(tags.h!.toLowerCase().split(':')).toEqual(expect.arrayContaining(['from', 'subject', 'to']));
    expect(verify('sha256', Buffer.from(unsigned), publicKey, Buffer.from(tags.b!, 'base64'))).toBe(true);
    // A changed body no longer matches its hash.
    expect(
      createHash('sha256')
        .update(relaxedBody(body.replace('10:15', '10:30')))
        .digest('base64'),
    ).not.toBe(tags.bh);
  });

  it('signs both one-click headers (RFC 8058 §4): an independent DKIM verifier passes, and fails once either changes', async () => {
    const mailer = createRecipientMailer({
      smtpUrl: smtp.url,
      mailFrom: 'Delivery Orders <no-reply@livraison-dlv.fr>',
      dkim: { domain: 'livraison-dlv.fr', selector: 'dlv2026', privateKey: PEM },
      dropDir: '/nonexistent',
      log: () => {},
    });
    await mailer.send(MAIL);
    const raw = smtp.inbox.at(-1)!.raw.replace(/\r?\n/g, '\r\n');
    // The selector's TXT record as DNS serves it: strings of at most 255 characters.
    const record = `v=DKIM1; k=rsa; p=${publicKey.export({ type: 'spki', format: 'der' }).toString('base64')}`;
    const resolver = async (name: string, type: string) => {
      if (name === 'dlv2026._domainkey.livraison-dlv.fr' && type === 'TXT')
        return [record.match(/.{1,255}/g)!];
      throw Object.assign(new Error(`queryTxt ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
    };
    const verified = async (message: string) => {
      const { results } = await dkimVerify(Buffer.from(message), { resolver });
      expect(results).toHaveLength(1);
      return results[0]!;
    };

    expect((await verified(raw)).status.result).toBe('pass');
    const signed = dkimTags(rawHeader(raw, 'DKIM-Signature')!).h!.toLowerCase().split(':');
    expect(signed).toEqual(
      expect.arrayContaining(['list-unsubscribe', 'list-unsubscribe-post', 'from', 'subject', 'to']),
    );
    // A relay that drops the POST header's promise, or points the link elsewhere, breaks the signature.
    const altered = [
      raw.replace('List-Unsubscribe-Post: List-Unsubscribe=One-Click', 'List-Unsubscribe-Post: nothing'),
      raw.replace('https://dlv.example.com/unsubscribe/abc', 'https://evil.example/unsubscribe/abc'),
    ];
    for (const message of altered) {
      expect(message).not.toBe(raw);
      expect((await verified(message)).status.result).toBe('fail');
    }
  });

  it('without SMTP_URL, writes an .eml under DATA_DIR/mail and logs where', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'dlv-mail-'));
    const logged: string[] = [];
    try {
      const mailer = createRecipientMailer({
        smtpUrl: null,
        mailFrom: 'Delivery Orders <no-reply@livraison-dlv.fr>',
        dkim: null,
        dropDir: path.join(dir, 'mail'),
        log: (m) => logged.push(m),
      });
      const { messageId } = await mailer.send(MAIL);
      const [file] = await readdir(path.join(dir, 'mail'));
      const parsed = await simpleParser(await readFile(path.join(dir, 'mail', file!)));
      expect(parsed.messageId).toBe(messageId);
      expect(parsed.subject).toBe(MAIL.subject);
      expect(logged).toEqual([expect.stringContaining(file!)]);
      // The log names the file, never the recipient.
      expect(logged.join()).not.toContain('jane@');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
