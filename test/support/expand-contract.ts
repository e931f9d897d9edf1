/**
 * The expand/contract rule of docs/operations.md, read from a migration's SQL: during a rolling
 * deploy the previous release's instances run on the new schema, so a migration only adds (tables,
 * nullable or defaulted columns, indexes, wider rules). A statement an old instance can trip on —
 * a dropped or renamed table, column, view, function, type or trigger it uses, a column's type
 * changed, a column made NOT NULL that its inserts leave out — belongs to a contract step: a later
 * release, once no instance runs the code that needed it, marked in its file by a line
 * `-- contract: <why it is safe now>`.
 */

export interface Finding {
  statement: string;
  rule: string;
}

const MARKER = /^\s*--\s*contract:\s*(.*)$/im;

/** The reason the file gives for its contract statements, or null when it has no marker. */
export function contractReason(sql: string): string | null {
  const match = MARKER.exec(sql);
  return match ? match[1]!.trim() : null;
}

/** The SQL without comments, string literals and dollar-quoted bodies (a function's body runs later, if ever). */
function skeleton(sql: string): string {
  return sql
    .replace(/\$([A-Za-z_]*)\$[\s\S]*?\$\1\$/g, ' $body$ ')
    .replace(/'(?:[^']|'')*'/g, "''")
    .replace(/--[^\n]*/g, ' ')
    .replace(/\/\*[\s\S]*?\*\//g, ' ')
    .replace(/\s+/g, ' ');
}

const name = String.raw`(?:IF EXISTS )?("?[\w.]+"?)`;

/** The statements of `sql` an instance of the previous release could fail on. */
export function destructiveStatements(sql: string): Finding[] {
  const text = skeleton(sql);
  const statements = text
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean);
  const created = (kind: string, object: string) =>
    new RegExp(
      `CREATE (?:OR REPLACE )?${kind} ${object.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`,
      'i',
    ).test(text);
  const findings: Finding[] = [];
  for (const statement of statements) {
    const found = (rule: string) => findings.push({ statement: statement.slice(0, 160), rule });
    const drop = new RegExp(
      `^DROP (TABLE|VIEW|MATERIALIZED VIEW|FUNCTION|TYPE|DOMAIN|SCHEMA|SEQUENCE|TRIGGER) ${name}`,
      'i',
    ).exec(statement);
    // Dropped and created again in the same file: a replacement, which the old code sees as before.
    if (drop && !created(drop[1]!.toUpperCase(), drop[2]!.replace(/\(.*$/, '')))
      found(`DROP ${drop[1]!.toUpperCase()}`);
    if (!/^ALTER TABLE/i.test(statement)) continue;
    if (
      /\bDROP (COLUMN )?(?!CONSTRAINT\b|DEFAULT\b|NOT NULL\b)\w+/i.test(
        statement.replace(/^ALTER TABLE \S+/i, ''),
      )
    )
      found('DROP COLUMN');
    if (/\bRENAME\b/i.test(statement)) found('RENAME');
    if (/\bALTER (COLUMN )?\S+ (SET DATA )?TYPE\b/i.test(statement)) found('ALTER COLUMN … TYPE');
    for (const [, column] of statement.matchAll(/\bALTER (?:COLUMN )?("?\w+"?) SET NOT NULL/gi)) {
      const defaulted = new RegExp(`\\bALTER (?:COLUMN )?${column} SET DEFAULT\\b`, 'i').test(text);
      if (!defaulted) found(`SET NOT NULL on ${column} without a default`);
    }
    for (const [clause] of statement.matchAll(
      /\bADD (?:COLUMN )?(?:IF NOT EXISTS )?(?!CONSTRAINT\b|PRIMARY\b|UNIQUE\b|CHECK\b|FOREIGN\b|EXCLUDE\b)"?\w+"? [^,]*\bNOT NULL\b[^,]*/gi,
    )) {
      if (!/\bDEFAULT\b|\bGENERATED\b/i.test(clause)) found('ADD COLUMN … NOT NULL without a default');
    }
  }
  return findings;
}
