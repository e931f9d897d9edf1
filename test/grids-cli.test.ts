import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, buildTestApp, call, createBrandWithKey, type TestApp, testDatabaseUrl } from './support/app.ts';
import { runDlv } from './support/run-cli.ts';
import { createScratchDatabase } from './support/scratch-database.ts';

const DATA = fileURLToPath(new URL('../data/', import.meta.url));
let t: TestApp;
let env: Record<string, string>;
let dir: string;
beforeAll(async () => {
  t = await buildTestApp();
  env = { DATABASE_URL: testDatabaseUrl() };
  dir = await mkdtemp(path.join(os.tmpdir(), 'dlv-grids-'));
});
afterAll(() => t.close());

describe('dlv grids', () => {
  it('imports a brand grid from CSV and from JSON, and shows it', async () => {
    const b = await createBrandWithKey(t.deps);
    const csv = await runDlv(
      ['grids', 'import', '--brand', b.brandId, path.join(DATA, 'example-grid.csv'), '--json'],
      env,
    );
    expect(csv.code, csv.stderr).toBe(0);
    expect(JSON.parse(csv.stdout)).toMatchObject({ scope: b.brandId, row_count: 18 });
    const json = await runDlv(
      ['grids', 'import', '--brand', b.brandId, path.join(DATA, 'example-grid.json'), '--json'],
      env,
    );
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout).version).toBeGreaterThan(JSON.parse(csv.stdout).version);

    const shown = await runDlv(['grids', 'show', '--brand', b.brandId, '--json'], env);
    expect(JSON.parse(shown.stdout)).toMatchObject({ source: 'negotiated', row_count: 18 });
    const human = await runDlv(['grids', 'show', '--brand', b.brandId], env);
    expect(human.stdout).toContain('service,zone,unit_type');
    const other = await createBrandWithKey(t.deps);
    const fallback = await runDlv(['grids', 'show', '--brand', other.brandId, '--json'], env);
    expect(JSON.parse(fallback.stdout).source).toMatch(/default/);
  });

  it("warns about a grid's holes on import and show, on stderr and as `holes` in --json", async () => {
    const b = await createBrandWithKey(t.deps);
    const file = path.join(dir, 'holes.csv');
    await writeFile(
      file,
      [
        'service,zone,unit_type,max_weight_kg,first_unit_eur,extra_unit_eur',
        ...['paris', 'petite_couronne', 'grande_couronne'].flatMap((zone) => [
          `standard,${zone},parcel,2,7.20,3.00`,
          `standard,${zone},parcel,30,12.00,5.00`,
        ]),
        'express,paris,parcel,2,15.00,6.00',
        'express,paris,parcel,30,25.00,9.00',
        'express,petite_couronne,parcel,2,16.00,6.00',
        '',
      ].join('\n'),
    );
    const imported = await runDlv(['grids', 'import', '--brand', b.brandId, file, '--json'], env);
    expect(imported.code, imported.stderr).toBe(0);
    const expected = [
      { service: 'express', zone: 'petite_couronne', unit_type: 'parcel', max_weight_kg: 30 },
      { service: 'express', zone: 'grande_couronne', unit_type: 'parcel', max_weight_kg: 2 },
      { service: 'express', zone: 'grande_couronne', unit_type: 'parcel', max_weight_kg: 30 },
    ];
    expect(JSON.parse(imported.stdout)).toMatchObject({ row_count: 9, holes: expected });
    // One line per service × unit type × zones, with the bands missing there.
    expect(imported.stderr.trimEnd().split('\n')).toEqual([
      'dlv: warning: the grid has 3 hole(s); a quote that meets one answers available: false, with no rates:',
      '  express parcel in petite_couronne, grande_couronne: no price for units up to 30 kg',
      '  express parcel in grande_couronne: no price for units up to 2 kg',
    ]);

    const shown = await runDlv(['grids', 'show', '--brand', b.brandId, '--json'], env);
    expect(JSON.parse(shown.stdout).holes).toEqual(expected);
    expect(shown.stderr).toBe(imported.stderr);
    const human = await runDlv(['grids', 'show', '--brand', b.brandId], env);
    expect(human.stdout).toContain('service,zone,unit_type');
    expect(human.stdout).not.toContain('hole');
    expect(human.stderr).toBe(imported.stderr);

    // A complete grid: no warning, and an empty list.
    const complete = await runDlv(
      ['grids', 'import', '--brand', b.brandId, path.join(DATA, 'example-grid.csv'), '--json'],
      env,
    );
    expect(complete.stderr).toBe('');
    expect(JSON.parse(complete.stdout).holes).toEqual([]);
  });

  it('refuses a file with a bad row, naming it, and leaves the current grid untouched', async () => {
    const b = await createBrandWithKey(t.deps);
    await runDlv(['grids', 'import', '--brand', b.brandId, path.join(DATA, 'example-grid.csv')], env);
    const before = await runDlv(['grids', 'show', '--brand', b.brandId, '--json'], env);
    const bad = path.join(dir, 'bad.csv');
    await writeFile(
      bad,
      'service,zone,unit_type,max_weight_kg,first_unit_eur,extra_unit_eur\nstandard,paris,parcel,2,7.20,3.00\nstandard,lyon,parcel,2,7.20,3.00\n',
    );
    const res = await runDlv(['grids', 'import', '--brand', b.brandId, bad], env);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/row 2.*lyon/);
    expect(res.stdout).toBe('');
    const after = await runDlv(['grids', 'show', '--brand', b.brandId, '--json'], env);
    expect(after.stdout).toBe(before.stdout);
  });

  it("reads a spreadsheet's quoted cells (line breaks, doubled quotes) and names the line and column of a broken one", async () => {
    const b = await createBrandWithKey(t.deps);
    const quoted = path.join(dir, 'quoted.csv');
    await writeFile(
      quoted,
      '# exported from a spreadsheet\r\nservice;zone;unit_type;max_weight_kg;first_unit_eur;extra_unit_eur\r\n' +
        '"standard";"paris";"parcel";"2";"7,20";"3,00"\r\n"standard\r\n";"petite_couronne";parcel;2;"8";3\r\n',
    );
    const ok = await runDlv(['grids', 'import', '--brand', b.brandId, quoted, '--json'], env);
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ row_count: 2 });

    const broken = path.join(dir, 'broken.csv');
    await writeFile(
      broken,
      'service,zone,unit_type,max_weight_kg,first_unit_eur,extra_unit_eur\n"standard ""B2B""",paris,parcel,2,7.20,3.00\nstandard,"paris"x,parcel,3,8,4\n',
    );
    const refused = await runDlv(['grids', 'import', '--brand', b.brandId, broken], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      'line 3, column 2 (zone): text after the closing quote of a quoted cell',
    );
  });

  it('reports usage errors and unknown brands', async () => {
    const file = path.join(DATA, 'example-grid.csv');
    expect((await runDlv(['grids', 'import', file], env)).code).toBe(2);
    expect(
      (await runDlv(['grids', 'import', '--brand', 'brd_0000000000000000', '--default', file], env)).code,
    ).toBe(2);
    const unknown = await runDlv(['grids', 'import', '--brand', 'brd_0000000000000000', file], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/no brand/);
    const missing = await runDlv(
      ['grids', 'import', '--brand', 'brd_0000000000000000', path.join(dir, 'nope.csv')],
      env,
    );
    expect(missing.code).toBe(1);
    const txt = await runDlv(['grids', 'import', '--default', path.join(dir, 'grid.txt')], env);
    expect(txt.code).toBe(2);
  });

  it('imports a default grid that brands without a negotiated grid use', async () => {
    // The default grid is global: this runs on a database of its own, not to disturb other files.
    const scratch = await createScratchDatabase();
    const other = await buildTestApp({ config: { databaseUrl: scratch.url } });
    try {
      const b = await createBrandWithKey(other.deps);
      const count = async () =>
        (
          await call(other.app, {
            method: 'POST',
            url: `${API}/rates`,
            headers: b.headers,
            payload: { delivery_zip: '75011' },
          })
        ).data.rates.length;
      expect(await count()).toBe(3);
      const res = await runDlv(['grids', 'import', '--default', path.join(DATA, 'example-grid.csv')], {
        DATABASE_URL: scratch.url,
      });
      expect(res.code, res.stderr).toBe(0);
      await other.deps.grids.refresh();
      expect(await count()).toBe(2);
      const shown = await runDlv(['grids', 'show', '--default', '--json'], { DATABASE_URL: scratch.url });
      expect(JSON.parse(shown.stdout)).toMatchObject({ source: 'default', row_count: 18 });
    } finally {
      await other.close();
      await scratch.drop();
    }
  });
});
