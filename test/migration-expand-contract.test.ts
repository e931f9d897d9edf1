/**
 * Migrations are expand-only unless marked (docs/operations.md, "Upgrades: expand, then contract"):
 * an instance of the previous release keeps running on the new schema during a rolling deploy.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR } from '../src/db/migrate.ts';
import { contractReason, destructiveStatements } from './support/expand-contract.ts';

const FILES = readdirSync(MIGRATIONS_DIR).filter((f) => f.endsWith('.sql'));

describe('expand/contract rule', () => {
  it.each(FILES)('%s only expands the schema, or says why it may contract it', (file) => {
    const sql = readFileSync(join(MIGRATIONS_DIR, file), 'utf8');
    const findings = destructiveStatements(sql);
    const reason = contractReason(sql);
    if (findings.length === 0) return;
    expect(
      reason,
      `${file} can break the previous release's instances:\n${findings.map((f) => `  ${f.rule}: ${f.statement}`).join('\n')}\n` +
        'Split it (expand now, contract in a later release) or add `-- contract: <why it is safe>`.',
    ).not.toBeNull();
    expect(reason!.length, `${file}: the contract marker needs a reason`).toBeGreaterThanOrEqual(20);
  });

  it('flags what an old instance trips on, and nothing an expansion does', () => {
    const rules = (sql: string) => destructiveStatements(sql).map((f) => f.rule);
    expect(rules('ALTER TABLE orders DROP COLUMN note;')).toEqual(['DROP COLUMN']);
    expect(rules('ALTER TABLE orders DROP note, ADD x int;')).toEqual(['DROP COLUMN']);
    expect(rules('ALTER TABLE orders RENAME COLUMN a TO b;')).toEqual(['RENAME']);
    expect(rules('ALTER TABLE orders RENAME TO parcels;')).toEqual(['RENAME']);
    expect(rules('ALTER TABLE orders ALTER COLUMN amount TYPE numeric;')).toEqual(['ALTER COLUMN … TYPE']);
    expect(rules('ALTER TABLE orders ALTER note SET NOT NULL;')).toEqual([
      'SET NOT NULL on note without a default',
    ]);
    expect(rules('ALTER TABLE orders ADD COLUMN kind text NOT NULL;')).toEqual([
      'ADD COLUMN … NOT NULL without a default',
    ]);
    expect(rules('DROP TABLE order_events;')).toEqual(['DROP TABLE']);
    expect(rules('DROP FUNCTION IF EXISTS f();')).toEqual(['DROP FUNCTION']);
    expect(rules('DROP TRIGGER t ON orders;')).toEqual(['DROP TRIGGER']);

    // Expansions, relaxations and replacements.
    expect(
      rules(`
        CREATE TABLE labels (id text PRIMARY KEY, kind text NOT NULL);
        ALTER TABLE orders ADD COLUMN kind text NOT NULL DEFAULT 'parcel', ADD COLUMN note text;
        ALTER TABLE orders ADD CONSTRAINT orders_kind_check CHECK (kind IS NOT NULL);
        ALTER TABLE orders DROP CONSTRAINT orders_status_check;
        ALTER TABLE orders ALTER COLUMN note DROP NOT NULL, ALTER COLUMN kind DROP DEFAULT;
        ALTER TABLE orders ALTER COLUMN token SET DEFAULT gen(), ALTER COLUMN token SET NOT NULL;
        ALTER INDEX a_idx RENAME TO b_idx;
        DROP INDEX orders_old_idx;
        DROP TRIGGER t ON orders; CREATE TRIGGER t AFTER INSERT ON orders EXECUTE FUNCTION f();
        CREATE FUNCTION g() RETURNS trigger AS $$ BEGIN ALTER TABLE x DROP COLUMN y; END $$ LANGUAGE plpgsql;
        -- DROP TABLE orders; (a comment)
        INSERT INTO notes VALUES ('ALTER TABLE orders RENAME TO x');
      `),
    ).toEqual([]);
  });

  it('reads the reason of a contract step', () => {
    expect(contractReason('-- contract: the 1.4 API, which read it, is gone\nDROP TABLE x;')).toBe(
      'the 1.4 API, which read it, is gone',
    );
    expect(contractReason('DROP TABLE x;')).toBeNull();
  });
});
