import { randomBytes } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditRepository } from '../src/db/repositories/audit-repository.ts';
import type { Author } from '../src/domain/audit/actor.ts';
import { AUDIT_CSV_COLUMNS } from '../src/domain/audit/audit-export.ts';
import { buildTestApp, call, type TestApp, testDatabaseUrl } from './support/app.ts';
import { createOrder } from './support/orders.ts';
import { runDlv } from './support/run-cli.ts';

/**
 * Listing the audit trail (issue 38): `GET /ops/v1/audit` and `dlv audit`, their filters, cursor
 * pages, and the CSV and JSON Lines exports read back with a CSV parser and line by line. Each test
 * reads the rows of an actor and orders of its own.
 */
const OPS_TOKEN = 'listing-ops-token-0123456789abcdefgh';
const OPS = { authorization: `Bearer ${OPS_TOKEN}` };
let t: TestApp;
const label = `lister-${randomBytes(4).toString('hex')}@audit-host`;
const by: Author = { actor: { kind: 'cli', label }, origin: null };
let brandId: string;
let refs: string[];

beforeAll(async () => {
  t = await buildTestApp({ config: { opsToken: OPS_TOKEN } });
  const brand = await t.deps.brands.create(
    { name: 'Maison Liste', pickupAddress: '1 rue de Rivoli 75001 Paris' },
    by,
  );
  brandId = brand.id;
  const key = await t.deps.apiKeys.create({ brandId, scopes: ['orders:read', 'orders:write'] }, by);
  const owner = { brandId, key: key.key, keyId: key.id, headers: { authorization: `Bearer ${key.key}` } };
  refs = [];
  for (let i = 0; i < 2; i++) refs.push((await createOrder(t.app, owner)).data.trackingRef);
  await t.deps.orders.setStatus(refs[0]!, 'picked_up', null, by);
  await t.deps.orders.setStatus(refs[1]!, 'picked_up', null, by);
  await t.deps.orders.setStatus(refs[0]!, 'in_transit', null, by);
  await t.deps.orders.getAnyBrand(refs[0]!, by);
  // A client whose user agent a spreadsheet would run as a formula.
  await call(t.app, {
    method: 'GET',
    url: `/ops/v1/orders/${refs[0]}`,
    headers: { ...OPS, 'user-agent': '=HYPERLINK("http://evil.example/","click")' },
  });
}, 60_000);
afterAll(() => t.close());

const list = (query: string, headers: Record<string, string> = {}) =>
  call(t.app, { method: 'GET', url: `/ops/v1/audit${query}`, headers: { ...OPS, ...headers } });

const actorQuery = `?actor=${encodeURIComponent(label)}`;

describe('GET /ops/v1/audit', () => {
  it('pages the trail newest first, following next_cursor, each row once', async () => {
    const seen: { id: string; action: string }[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 5; page++) {
      const res = await list(`${actorQuery}&limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.statusCode, res.body).toBe(200);
      seen.push(...res.data.events);
      cursor = res.data.next_cursor;
      if (!cursor) break;
    }
    expect(cursor).toBeNull();
    expect(seen.map((e) => e.action)).toEqual([
      'recipient.read',
      'order.status_changed',
      'order.status_changed',
      'order.status_changed',
      'api_key.created',
      'brand.created',
    ]);
    const ids = seen.map((e) => BigInt(e.id));
    expect(ids).toEqual([...ids].sort((a, b) => (a < b ? 1 : -1)));
    const [read] = seen as unknown as { actor: unknown; origin: unknown; order_refs: string[] }[];
    expect(read).toMatchObject({
      actor: { kind: 'cli', id: label, label },
      origin: null,
      order_refs: [refs[0]],
    });
  });

  it('filters by order, action (one or a group), brand, actor kind and period', async () => {
    const byOrder = await list(`?order=${refs[0]}`);
    expect(
      byOrder.data.events.map((e: { action: string; actor: { kind: string } }) => [e.action, e.actor.kind]),
    ).toEqual([
      ['recipient.read', 'bootstrap'],
      ['recipient.read', 'cli'],
      ['order.status_changed', 'cli'],
      ['order.status_changed', 'cli'],
    ]);
    // Scanners send references without the dash, in lower case: found all the same.
    const loose = await list(`?order=${refs[0]!.replace('-', '').toLowerCase()}`);
    expect(loose.data.events).toHaveLength(4);
    const moves = await list(`${actorQuery}&action=order.status_changed`);
    expect(moves.data.events).toHaveLength(3);
    const group = await list(`${actorQuery}&action=${encodeURIComponent('order.*')}`);
    expect(group.data.events).toHaveLength(3);
    const ofBrand = await list(`?brand=${brandId}&action=brand.created`);
    expect(ofBrand.data.events.map((e: { object: { id: string } }) => e.object.id)).toEqual([brandId]);
    const reads = await list(`?order=${refs[0]}&actor=bootstrap`);
    expect(reads.data.events).toHaveLength(1);
    expect(reads.data.events[0].origin.user_agent).toMatch(/^=HYPERLINK/);
    expect((await list(`${actorQuery}&since=2099-01-01`)).data.events).toEqual([]);
    expect((await list(`${actorQuery}&until=2000-01-01T00:00:00Z`)).data.events).toEqual([]);
    const now = await list(`${actorQuery}&since=2000-01-01&until=2099-01-01T00:00:00%2B01:00`);
    expect(now.data.events).toHaveLength(6);
  });

  it('names each bad filter in one 400, and refuses a cursor with other filters', async () => {
    const bad = await list('?order=nope&action=order.lost&since=yesterday&brand=mine');
    expect(bad.statusCode).toBe(400);
    expect(bad.data.details.map((d: { field: string }) => d.field).sort()).toEqual([
      'action',
      'brand',
      'order',
      'since',
    ]);
    const page = await list(`${actorQuery}&limit=1`);
    const replayed = await list(`?order=${refs[0]}&limit=1&cursor=${page.data.next_cursor}`);
    expect([replayed.statusCode, replayed.data.details[0].field]).toEqual([400, 'cursor']);
    const tooMany = await list(`${actorQuery}&limit=500`);
    expect([tooMany.statusCode, tooMany.data.details[0].field]).toEqual([400, 'limit']);
    expect((await list('?format=xml')).statusCode).toBe(400);
    const anonymous = await call(t.app, { method: 'GET', url: '/ops/v1/audit' });
    expect(anonymous.statusCode).toBe(401);
    // A bad filter on an export is the error envelope too, not a broken file.
    const badExport = await list('?order=nope', { accept: 'text/csv' });
    expect([badExport.statusCode, badExport.headers['content-type']]).toEqual([
      400,
      expect.stringMatching(/json/),
    ]);
  });

  it('exports CSV (Accept: text/csv) that a CSV parser reads back as the JSON says', async () => {
    const json = (await list(`${actorQuery}&limit=200`)).data.events as Record<string, any>[];
    const res = await list(actorQuery, { accept: 'text/csv' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="audit-.+\.csv"$/);
    const [header, ...lines] = parse(res.body) as string[][];
    expect(header).toEqual([...AUDIT_CSV_COLUMNS]);
    expect(lines).toHaveLength(json.length);
    const records = lines.map((cells) => Object.fromEntries(header!.map((name, i) => [name, cells[i]!])));
    records.forEach((r, i) => {
      const e = json[i]!;
      expect(r).toMatchObject({
        id: e.id,
        at: e.at,
        actor_kind: 'cli',
        actor_id: label,
        actor_label: label,
        client_address: '',
        action: e.action,
        object_type: e.object.type,
        object_id: e.object.id,
        brand_id: e.brand_id ?? '',
        order_refs: e.order_refs.join(' '),
      });
      expect(r.changes === '' ? null : JSON.parse(r.changes!)).toEqual(e.changes);
      expect(r.details === '' ? null : JSON.parse(r.details!)).toEqual(e.details);
    });
    // The format query, with a limit; a cell that would start a formula is made inert.
    const formula = await list(`?order=${refs[0]}&actor=bootstrap&format=csv&limit=1`);
    const [, row] = parse(formula.body) as string[][];
    expect(row![AUDIT_CSV_COLUMNS.indexOf('user_agent')]).toBe(
      '\'=HYPERLINK("http://evil.example/","click")',
    );
  });

  it('exports JSON Lines (format=jsonl or Accept: application/x-ndjson), one entry a line', async () => {
    const json = (await list(`${actorQuery}&limit=200`)).data.events;
    for (const res of [
      await list(`${actorQuery}&format=jsonl`),
      await list(actorQuery, { accept: 'application/x-ndjson' }),
    ]) {
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
      const lines = res.body.split('\n');
      expect(lines.pop()).toBe('');
      expect(lines.map((line) => JSON.parse(line))).toEqual(json);
    }
  });

  it('streams an export larger than its reads, every row once, newest first', async () => {
    const bulk = `bulk-${randomBytes(4).toString('hex')}@audit-host`;
    const author: Author = { actor: { kind: 'cli', label: bulk }, origin: null };
    const entries = Array.from({ length: 2345 }, (_, i) => ({
      action: 'recipient.read' as const,
      by: author,
      object: { type: 'order' as const, id: `DLV-${String(i).padStart(10, '0')}` },
    }));
    for (let i = 0; i < entries.length; i += 1000)
      await auditRepository(t.pool).record(...entries.slice(i, i + 1000));
    const res = await list(`?actor=${encodeURIComponent(bulk)}&format=csv`);
    const [, ...rows] = parse(res.body) as string[][];
    expect(rows).toHaveLength(2345);
    const ids = rows.map((r) => BigInt(r[0]!));
    expect(new Set(ids).size).toBe(2345);
    expect(ids).toEqual([...ids].sort((a, b) => (a < b ? 1 : -1)));
    expect(rows.at(-1)![AUDIT_CSV_COLUMNS.indexOf('object_id')]).toBe('DLV-0000000000');
  });
});

describe('dlv audit', () => {
  const env = () => ({ DATABASE_URL: testDatabaseUrl() });

  it('lists, filters and exports as the API does', async () => {
    const table = await runDlv(['audit', '--actor', label], env());
    expect(table.code, table.stderr).toBe(0);
    const lines = table.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^AT\s+ACTOR\s+ACTION\s+OBJECT\s+ORDERS\s+CHANGES$/);
    expect(lines).toHaveLength(7);
    expect(lines[2]).toContain('order.status_changed');
    expect(lines[2]).toContain('status: "picked_up"→"in_transit"');

    const json = await runDlv(['audit', '--actor', label, '--action', 'order.*', '--json'], env());
    expect(JSON.parse(json.stdout).events.map((e: { action: string }) => e.action)).toEqual([
      'order.status_changed',
      'order.status_changed',
      'order.status_changed',
    ]);

    // Only the order's own changes: another file's round planning of the shared database's day
    // may have put this order on a round (`round.planned`) meanwhile.
    const csv = await runDlv(['audit', '--order', refs[1]!, '--action', 'order.*', '--format', 'csv'], env());
    expect(csv.code, csv.stderr).toBe(0);
    const [header, ...rows] = parse(csv.stdout) as string[][];
    expect(header).toEqual([...AUDIT_CSV_COLUMNS]);
    expect(rows.map((r) => r[AUDIT_CSV_COLUMNS.indexOf('action')])).toEqual(['order.status_changed']);

    const jsonl = await runDlv(['audit', '--actor', label, '--limit', '2', '--format', 'jsonl'], env());
    const entries = jsonl.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(entries.map((e) => e.action)).toEqual(['recipient.read', 'order.status_changed']);

    const refused = await runDlv(['audit', '--action', 'order.lost'], env());
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/action: must be an action of the catalogue/);
    const usage = await runDlv(['audit', '--format', 'xml'], env());
    expect([usage.code, usage.stderr]).toEqual([
      2,
      expect.stringMatching(/--format must be table, csv or jsonl/),
    ]);
  }, 60_000);
});
