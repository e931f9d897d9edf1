import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, call, createBrandWithKey, type TestBrand } from './support/app.ts';
import { decodeBarcodes } from './support/barcodes.ts';
import { createOrder, subscribeToWebhooks, VALID_ORDER } from './support/orders.ts';
import { POPPLER } from './support/pdf-pages.ts';
import { runDlv } from './support/run-cli.ts';
import { buildScratchTestApp, type ScratchTestApp } from './support/scratch-database.ts';

const run = promisify(execFile);

// The sort-code table is the deployment's, not a brand's: this file has a database of its own.
let t: ScratchTestApp;
let dir: string;
let brand: TestBrand;
let other: TestBrand;

beforeAll(async () => {
  t = await buildScratchTestApp();
  dir = await mkdtemp(path.join(tmpdir(), 'dlv-labels-routes-'));
  brand = await createBrandWithKey(t.deps, { name: 'Maison Lemoine' });
  other = await createBrandWithKey(t.deps, { name: 'Autre Maison' });
  await subscribeToWebhooks(t.pool, brand.brandId);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  await t.close();
});

async function newOrder(body: object = {}, owner: TestBrand = brand): Promise<string> {
  const res = await createOrder(t.app, owner, { ...VALID_ORDER, ...body });
  expect(res.statusCode, res.body).toBe(200);
  return res.data.trackingRef;
}

const label = (ref: string, query = '', who: TestBrand = brand) =>
  call(t.app, { method: 'GET', url: `${API}/orders/${ref}/label${query}`, headers: who.headers });

const batch = (payload: unknown, who: TestBrand = brand) =>
  call(t.app, { method: 'POST', url: `${API}/labels`, headers: who.headers, payload: payload as object });

async function labelledAt(refs: string[]): Promise<Record<string, Date | null>> {
  const { rows } = await t.pool.query<{ tracking_ref: string; labelled_at: Date | null }>(
    'SELECT tracking_ref, labelled_at FROM orders WHERE tracking_ref = ANY($1)',
    [refs],
  );
  return Object.fromEntries(rows.map((r) => [r.tracking_ref, r.labelled_at]));
}

async function labelledEvents(
  ref: string,
): Promise<Array<{ labelled_at: string; order: { tracking_ref: string } }>> {
  const { rows } = await t.pool.query<{ data: { labelled_at: string; order: { tracking_ref: string } } }>(
    `SELECT data FROM outbox_events WHERE brand_id = $1 AND type = 'order.labelled'
       AND data->'order'->>'tracking_ref' = $2`,
    [brand.brandId, ref],
  );
  return rows.map((r) => r.data);
}

async function firstPagePng(pdf: Buffer, name: string): Promise<Buffer> {
  const file = path.join(dir, `${name}.pdf`);
  await writeFile(file, pdf);
  await run('pdftoppm', [
    '-r',
    '300',
    '-f',
    '1',
    '-l',
    '1',
    '-singlefile',
    '-png',
    file,
    path.join(dir, name),
  ]);
  const { readFile } = await import('node:fs/promises');
  return readFile(path.join(dir, `${name}.png`));
}

describe('GET /orders/{trackingRef}/label', () => {
  it.skipIf(!POPPLER)(
    'answers an A6 PDF whose barcodes give the reference and the default sort code, recorded once',
    async () => {
      const ref = await newOrder();
      const res = await label(ref);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(res.headers['content-disposition']).toBe(`inline; filename="label-${ref}.pdf"`);
      expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
      const found = await decodeBarcodes(await firstPagePng(res.rawPayload, ref));
      expect(found).toEqual(
        expect.arrayContaining([
          { format: 'Code128', text: ref },
          { format: 'DataMatrix', text: `${ref}|PAR-11|1/1` },
        ]),
      );
      const first = (await labelledAt([ref]))[ref];
      expect(first).toBeInstanceOf(Date);
      const events = await labelledEvents(ref);
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ labelled_at: first!.toISOString(), order: { tracking_ref: ref } });

      // A reprint: the same label, the first date kept, no second event.
      const again = await label(ref.toLowerCase(), '?format=zpl&size=4x6');
      expect(again.statusCode).toBe(200);
      expect(again.headers['content-type']).toBe('application/zpl');
      expect(again.headers['content-disposition']).toBe(`attachment; filename="label-${ref}.zpl"`);
      expect(again.body).toContain(`^BCN,170,N,N,N^FH^FD${ref}^FS`);
      expect(again.body).toContain('^PW812');
      expect((await labelledAt([ref]))[ref]).toEqual(first);
      expect(await labelledEvents(ref)).toHaveLength(1);
    },
  );

  it('keeps the order’s stored JSON current: labelled_at is not a member of it (migration 0029)', async () => {
    const ref = await newOrder();
    const version = async () =>
      (
        await t.pool.query<{ json_version: number | null }>(
          'SELECT json_version FROM orders WHERE tracking_ref = $1',
          [ref],
        )
      ).rows[0]!.json_version;
    const stored = await version();
    expect(stored).not.toBeNull();
    expect((await label(ref)).statusCode).toBe(200);
    expect(await version()).toBe(stored);
    // A fix by hand of a served column is still marked stale, labelled_at changed with it or not.
    await t.pool.query(
      "UPDATE orders SET reference = 'BY-HAND', labelled_at = labelled_at + interval '1 s' WHERE tracking_ref = $1",
      [ref],
    );
    expect(await version()).toBeNull();
  });

  it('is a 404 for another brand’s order, exactly like GET /orders/{ref}, and records nothing', async () => {
    const ref = await newOrder({}, other);
    const res = await label(ref);
    const detail = await call(t.app, { method: 'GET', url: `${API}/orders/${ref}`, headers: brand.headers });
    expect(res.statusCode).toBe(404);
    expect({ ...res.data, request_id: null }).toEqual({ ...detail.data, request_id: null });
    expect((await label('DLV-0000000000')).statusCode).toBe(404);
    expect((await labelledAt([ref]))[ref]).toBeNull();
  });

  it('refuses an order that cannot be collected with 422 not_labellable', async () => {
    const awaiting = await newOrder({ delivery_address: undefined });
    const cancelled = await newOrder();
    await t.deps.orders.cancel(brand.brandId, cancelled);
    for (const [ref, status] of [
      [awaiting, 'awaiting_address'],
      [cancelled, 'cancelled'],
    ]) {
      const res = await label(ref!);
      expect(res.statusCode).toBe(422);
      expect(res.data).toMatchObject({ ok: false, error: 'not_labellable' });
      expect(res.data.message).toContain(status);
    }
    expect(await labelledAt([awaiting, cancelled])).toEqual({ [awaiting]: null, [cancelled]: null });
  });

  it('names a bad format or size in a 400', async () => {
    const ref = await newOrder();
    for (const [query, field] of [
      ['?format=png', 'format'],
      ['?size=a4', 'size'],
      ['?sizes=a6', 'sizes'],
    ]) {
      const res = await label(ref, query);
      expect(res.statusCode, query).toBe(400);
      expect(res.data.error).toBe('invalid_request');
      expect(JSON.stringify(res.data.details ?? res.data.message)).toContain(field);
    }
    expect((await labelledAt([ref]))[ref]).toBeNull();
  });

  it('needs orders:read', async () => {
    const ref = await newOrder();
    const writer = await createBrandWithKey(t.deps, { scopes: ['orders:write'] });
    const res = await label(ref, '', writer);
    expect(res.statusCode).toBe(403);
    expect(res.data.error).toBe('insufficient_scope');
    const anonymous = await call(t.app, { method: 'GET', url: `${API}/orders/${ref}/label` });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('POST /labels', () => {
  it.skipIf(!POPPLER)(
    'prints every order, one page per unit, in the order given, and emits one event per order',
    async () => {
      const one = await newOrder({ reference: '#1042' });
      const three = await newOrder({
        quantity: 3,
        delivery_address: '8 avenue Jean Jaurès 93200 Saint-Denis',
      });
      const res = await batch({ tracking_refs: [three, one] });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      const file = path.join(dir, 'batch.pdf');
      await writeFile(file, res.rawPayload);
      const { stdout } = await run('pdfinfo', [file]);
      expect(stdout).toMatch(/Pages:\s+4\b/);
      const text = (await run('pdftotext', ['-layout', file, '-'])).stdout;
      const pages = text.split('\f');
      expect(pages[0]).toContain('1/3');
      expect(pages[2]).toContain('3/3');
      expect(pages[2]).toContain('PC-93');
      expect(pages[3]).toContain('#1042');
      expect(pages[3]).toContain('PAR-11');
      expect(text).not.toContain('jane@example.com');
      expect(await labelledEvents(one)).toHaveLength(1);
      expect(await labelledEvents(three)).toHaveLength(1);

      const zpl = await batch({ tracking_refs: [one], format: 'zpl', size: 'a6' });
      expect(zpl.statusCode).toBe(200);
      expect(zpl.body.match(/\^XA/g)).toHaveLength(1);
      expect(zpl.body).toContain('^PW840');
      expect(await labelledEvents(one)).toHaveLength(1);
    },
  );

  it('names unknown and foreign references in a 422 and prints nothing', async () => {
    const mine = await newOrder();
    const foreign = await newOrder({}, other);
    const res = await batch({ tracking_refs: [mine, foreign, 'DLV-0000000000', 'nonsense'] });
    expect(res.statusCode).toBe(422);
    expect(res.data.error).toBe('unknown_orders');
    expect(res.data.details.map((d: { field: string }) => d.field)).toEqual([
      'tracking_refs[1]',
      'tracking_refs[2]',
      'tracking_refs[3]',
    ]);
    expect(await labelledAt([mine, foreign])).toEqual({ [mine]: null, [foreign]: null });
    expect(await labelledEvents(mine)).toHaveLength(0);
  });

  it('names orders that cannot be collected in a 422 and prints nothing', async () => {
    const fine = await newOrder();
    const cancelled = await newOrder();
    await t.deps.orders.cancel(brand.brandId, cancelled);
    const res = await batch({ tracking_refs: [fine, cancelled] });
    expect(res.statusCode).toBe(422);
    expect(res.data).toMatchObject({
      error: 'not_labellable',
      details: [{ field: 'tracking_refs[1]', message: expect.stringContaining('cancelled') }],
    });
    expect((await labelledAt([fine]))[fine]).toBeNull();
  });

  it('refuses repeats, bad formats, sizes, empty and oversized lists with a 400 naming the field', async () => {
    const ref = await newOrder();
    const cases: Array<[unknown, string]> = [
      [{ tracking_refs: [ref, ref.toLowerCase()] }, 'tracking_refs[1]'],
      [{ tracking_refs: [ref], format: 'png' }, 'format'],
      [{ tracking_refs: [ref], size: 'a4' }, 'size'],
      [{ tracking_refs: [] }, 'tracking_refs'],
      [
        { tracking_refs: Array.from({ length: 201 }, (_, i) => `DLV-${String(i).padStart(10, '0')}`) },
        'tracking_refs',
      ],
      [{ tracking_refs: [ref], copies: 2 }, 'copies'],
      [{}, 'tracking_refs'],
    ];
    for (const [payload, field] of cases) {
      const res = await batch(payload);
      expect(res.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
      expect(res.data.error).toBe('invalid_request');
      expect(JSON.stringify(res.data.details ?? res.data.message)).toContain(field);
    }
    expect((await labelledAt([ref]))[ref]).toBeNull();
  });

  it('refuses a document over 1,000 labels', async () => {
    const refs = [await newOrder({ quantity: 600 }), await newOrder({ quantity: 401 })];
    const res = await batch({ tracking_refs: refs });
    expect(res.statusCode).toBe(422);
    expect(res.data.error).toBe('too_many_labels');
    expect(await labelledAt(refs)).toEqual({ [refs[0]!]: null, [refs[1]!]: null });
  });
});

describe('dlv sort-codes', () => {
  it('imports a table the labels then use, lists it, and refuses a bad file whole', async () => {
    const env = { DATABASE_URL: t.databaseUrl, LOG_LEVEL: 'silent' };
    const good = path.join(dir, 'codes.csv');
    await writeFile(good, 'postcode,sort_code\n75011,par-11-e\n93,PC-93-N\n');
    const imported = await runDlv(['sort-codes', 'import', good, '--json'], env);
    expect(imported.code, imported.stderr).toBe(0);
    expect(JSON.parse(imported.stdout)).toEqual({ rules: 2 });
    const listed = await runDlv(['sort-codes', 'list', '--json'], env);
    expect(JSON.parse(listed.stdout)).toEqual({
      rules: [
        { postcode: '75011', sort_code: 'PAR-11-E' },
        { postcode: '93', sort_code: 'PC-93-N' },
      ],
    });

    const bad = path.join(dir, 'bad.csv');
    await writeFile(bad, 'postcode,sort_code\n75011,PAR 11\n');
    const refused = await runDlv(['sort-codes', 'import', bad], env);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('line 2.sort_code');
    expect(await t.deps.labels.sortCodes()).toHaveLength(2);

    const ref = await newOrder();
    const zpl = await label(ref, '?format=zpl');
    expect(zpl.body).toContain(`^FD${ref}|PAR-11-E|1/1^FS`);
  }, 120_000);
});
