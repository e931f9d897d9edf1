import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeps } from '../src/deps.ts';
import { buildTestApp, type TestApp } from './support/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const scope = { list: 'orders', brandId: 'brd_9a8b7c6d5e4f3a2b', filter: '' };

describe('the cursor key', () => {
  it('is generated once and shared through the database by every instance', async () => {
    // Two more "instances" on the same database, started together.
    const [a, b] = [createDeps(t.deps.config, t.pool), createDeps(t.deps.config, t.pool)];
    const [codecA, codecB, codecC] = await Promise.all([
      a.cursors.ready(),
      b.cursors.ready(),
      t.deps.cursors.ready(),
    ]);
    const cursor = codecA.encode(scope, '7');
    expect(codecB.decode(scope, cursor)).toBe('7');
    expect(codecC.decode(scope, cursor)).toBe('7');
    const { rows } = await t.pool.query(
      "SELECT octet_length(value) AS n FROM server_secrets WHERE name = 'cursor_key'",
    );
    expect(rows).toEqual([{ n: 32 }]);
  });

  it('comes from CURSOR_SECRET when set, the same on every instance', async () => {
    const config = { ...t.deps.config, cursorSecret: 'x'.repeat(40) };
    const cursor = (await createDeps(config, t.pool).cursors.ready()).encode(scope, '7');
    expect((await createDeps(config, t.pool).cursors.ready()).decode(scope, cursor)).toBe('7');
    const stored = await t.deps.cursors.ready();
    expect(() => stored.decode(scope, cursor)).toThrow();
  });
});
