import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR } from '../src/db/migrate.ts';
import { createThrowawayDatabase } from '../src/db/throwaway-database.ts';
import { API, buildTestApp, call, type TestApp, testDatabaseUrl } from './support/app.ts';
import { testOperator } from './support/audit.ts';
import { runDlv } from './support/run-cli.ts';

let t: TestApp;
let env: Record<string, string>;
beforeAll(async () => {
  t = await buildTestApp();
  env = { DATABASE_URL: testDatabaseUrl() };
});
afterAll(() => t.close());

const json = (stdout: string) => JSON.parse(stdout) as Record<string, any>;
/** Characters a terminal would act on (line breaks aside). */
const controlsIn = (text: string) =>
  [...text].filter((c) => c !== '\n' && /[\p{Cc}\u202a-\u202e\u2066-\u2069]/u.test(c));

describe('dlv', () => {
  it('migrate is idempotent', async () => {
    const res = await runDlv(['migrate', '--json'], env);
    expect(res.code).toBe(0);
    expect(json(res.stdout)).toEqual({ applied: [] });
  });

  it('migrate --json lists the migrations it applied to a fresh database, then none (issue #25)', async () => {
    const fresh = await createThrowawayDatabase(testDatabaseUrl(), 'dlv_cli_migrate');
    try {
      const all = readdirSync(MIGRATIONS_DIR)
        .filter((f) => f.endsWith('.sql'))
        .sort();
      const first = await runDlv(['migrate', '--json'], { DATABASE_URL: fresh.url });
      expect(first.code, first.stderr).toBe(0);
      expect(json(first.stdout)).toEqual({ applied: all });
      const human = await runDlv(['migrate'], { DATABASE_URL: fresh.url });
      expect(human.stdout.trim()).toBe('Database is up to date.');
      const again = await runDlv(['migrate', '--json'], { DATABASE_URL: fresh.url });
      expect(json(again.stdout)).toEqual({ applied: [] });
    } finally {
      await fresh.drop();
    }
  });

  it('creates a brand and a key that authenticates, lists them, and revokes the key', async () => {
    const brand = await runDlv(
      ['brands', 'create', '--name', 'CLI Brand', '--pickup-address', '3 rue X 75003 Paris', '--json'],
      env,
    );
    expect(brand.code).toBe(0);
    expect(brand.stdout.trim().split('\n')).toHaveLength(1);
    const { id, name } = json(brand.stdout);
    expect(id).toMatch(/^brd_[0-9a-f]{16}$/);
    expect(name).toBe('CLI Brand');

    const key = await runDlv(
      ['keys', 'create', '--brand', id, '--scopes', 'orders:read,invoices:read', '--json'],
      env,
    );
    expect(key.code).toBe(0);
    const created = json(key.stdout);
    expect(created).toMatchObject({
      id: expect.stringMatching(/^key_[0-9a-f]{16}$/),
      scopes: ['invoices:read', 'orders:read'],
    });
    expect(created.key).toMatch(/^dlv_[0-9a-f]{64}$/);
    expect(created.prefix).toBe(created.key.slice(0, 12));

    const me = await call(t.app, {
      method: 'GET',
      url: `${API}/me`,
      headers: { authorization: `Bearer ${created.key}` },
    });
    expect(me.statusCode).toBe(200);
    expect(me.data.brand.id).toBe(id);

    const brands = json((await runDlv(['brands', 'list', '--json'], env)).stdout);
    expect(brands.brands.map((b: { id: string }) => b.id)).toContain(id);
    const keys = json((await runDlv(['keys', 'list', '--brand', id, '--json'], env)).stdout);
    expect(keys.keys).toEqual([expect.objectContaining({ id: created.id, revoked_at: null })]);
    expect(JSON.stringify(keys)).not.toContain(created.key);

    const human = await runDlv(['keys', 'list', '--brand', id], env);
    expect(human.stdout).toContain(created.prefix);

    const revoke = await runDlv(['keys', 'revoke', created.id, '--json'], env);
    expect(revoke.code).toBe(0);
    expect(json(revoke.stdout).revoked_at).toEqual(expect.any(String));
  });

  it('reports errors on stderr with a non-zero exit and nothing on stdout', async () => {
    const cases: [string[], number, RegExp][] = [
      [
        ['keys', 'create', '--brand', 'brd_0000000000000000', '--scopes', 'orders:read', '--json'],
        1,
        /no brand/,
      ],
      [
        ['keys', 'create', '--brand', 'brd_0000000000000000', '--scopes', 'orders:fly'],
        1,
        /unknown scope "orders:fly"/,
      ],
      [['keys', 'create', '--scopes', 'orders:read'], 2, /--brand is required/],
      [['keys', 'revoke', 'key_nope'], 1, /no API key/],
      [['brands', 'create', '--name', '   '], 2, /--name is required/],
      [
        ['brands', 'create', '--name', 'Lyon', '--pickup-address', '3 quai Saint-Antoine 69002 Lyon'],
        1,
        /pickup_address: 69002 \(Lyon\) is outside the delivery zone/,
      ],
      // #36 item 10: a line break became the default sender name (a From and a subject split in two).
      [
        ['brands', 'create', '--name', 'Evil\r\nBcc: victim@example.com'],
        1,
        /name: must not contain line breaks, control characters or the characters < > "/,
      ],
      [['brands', 'create', '--name', 'Shop <admin@evil.example>'], 1, /name: must not contain line breaks/],
      [['brands', 'frobnicate'], 2, /unknown command/],
      [['brands', 'list', '--bogus'], 2, /unknown option --bogus/],
    ];
    for (const [args, code, message] of cases) {
      const res = await runDlv(args, env);
      expect(res.code, args.join(' ')).toBe(code);
      expect(res.stderr).toMatch(message);
      expect(res.stdout).toBe('');
    }
    const refused = await t.pool.query("SELECT 1 FROM brands WHERE name LIKE 'Evil%' OR name LIKE 'Shop <%'");
    expect(refused.rowCount).toBe(0);
  });

  it('escapes control characters of public text in human output; --json stays exact (issue #23)', async () => {
    // A company name as the account area takes it: terminal escapes (title, clear screen) and a bidi override.
    const name = 'Acme\x1b]0;owned\x07\x1b[2J\u202eevil';
    // Stored as it is by hand: a new brand's name may not carry control characters (#36 item 10).
    const brand = await t.deps.brands.create({ name: 'Acme' }, testOperator);
    await t.pool.query('UPDATE brands SET name = $2 WHERE id = $1', [brand.id, name]);
    const human = await runDlv(['brands', 'show', brand.id], env);
    expect(human.code).toBe(0);
    expect(controlsIn(human.stdout)).toEqual([]);
    expect(human.stdout).toContain('Acme\\x1b]0;owned\\x07\\x1b[2J\\u202eevil');
    const exact = await runDlv(['brands', 'show', brand.id, '--json'], env);
    expect(json(exact.stdout).name).toBe(name);
  });

  it('prints help', async () => {
    const res = await runDlv(['--help'], env);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('dlv keys create');
  });

  it("prints a command group's help for the group alone, or with --help", async () => {
    for (const args of [['keys'], ['invoices'], ['keys', '--help'], ['help', 'keys']]) {
      const res = await runDlv(args, env);
      const group = args.find((a) => a !== 'help' && !a.startsWith('-'))!;
      expect(res.code, args.join(' ')).toBe(0);
      expect(res.stderr).toBe('');
      expect(res.stdout).toContain(`dlv ${group} — `);
      const usages = res.stdout.split('\n').filter((line) => line.startsWith('  dlv '));
      expect(usages.length, args.join(' ')).toBeGreaterThan(1);
      for (const usage of usages) expect(usage).toMatch(new RegExp(`^  dlv ${group} `));
    }
    expect((await runDlv(['keys'], env)).stdout).toContain('dlv keys revoke KEY_ID');
    // A command that is not a group keeps its meaning; an unknown group is still an error.
    expect((await runDlv(['frobnicate'], env)).code).toBe(2);
  });
});
