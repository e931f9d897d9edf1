/**
 * Where an order's cost goes: CPU of the API process by module (from a `node --cpu-prof`
 * profile), SQL statements (pg_stat_statements when the server preloads it, else transaction and
 * scan counters), and rows and index entries written per table (pg_stat_user_tables).
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

interface Profile {
  nodes: { id: number; callFrame: { functionName: string; url: string }; children?: number[] }[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** What a profile frame is charged to: src/<dir>, a package, a node: module, or V8 itself. */
function moduleOf(url: string, functionName: string): string | null {
  if (functionName === '(idle)') return null;
  if (functionName === '(garbage collector)') return 'V8: garbage collector';
  if (functionName === '(program)' || functionName === '(root)') return 'V8: (program)';
  if (url === '') return 'V8: natives and builtins';
  if (url.startsWith('node:')) {
    return `node:${url
      .slice(5)
      .replace(/^internal\//, '')
      .split('/')[0]!
      .replace(/\.js$/, '')}`;
  }
  const file = url.startsWith('file://') ? fileURLToPath(url) : url;
  const packages = file.lastIndexOf('/node_modules/');
  if (packages >= 0) {
    const [scope, name] = file.slice(packages + 14).split('/');
    return scope!.startsWith('@') ? `${scope}/${name}` : scope!;
  }
  const relative = path.relative(ROOT, file);
  return relative.startsWith('..') ? file : path.dirname(relative).split('/').slice(0, 3).join('/');
}

const isOwnCode = (module: string) => !module.startsWith('node:') && !module.startsWith('V8:');

export interface CpuShare {
  module: string;
  /** Time in the module's own frames. */
  selfMs: number;
  /** The same plus the node internals and natives it called (a socket write, a hash). */
  chargedMs: number;
}

/**
 * Time by module over the profiles in `dir` (one per thread), counting only the samples taken
 * between `fromUs` and `toUs` (the monotonic clock in µs, which V8 timestamps use too).
 */
export async function cpuByModule(dir: string, fromUs: number, toUs: number): Promise<CpuShare[]> {
  const shares = new Map<string, CpuShare>();
  const share = (module: string) => {
    const found = shares.get(module) ?? { module, selfMs: 0, chargedMs: 0 };
    shares.set(module, found);
    return found;
  };
  for (const name of (await readdir(dir)).filter((f) => f.endsWith('.cpuprofile'))) {
    const profile = JSON.parse(await readFile(path.join(dir, name), 'utf8')) as Profile;
    const parents = new Map(profile.nodes.flatMap((n) => (n.children ?? []).map((c) => [c, n.id] as const)));
    const modules = new Map(
      profile.nodes.map((n) => [n.id, moduleOf(n.callFrame.url, n.callFrame.functionName)]),
    );
    // The nearest frame, this one or a caller, in src/ or a package.
    const owners = new Map<number, string | null>();
    const ownerOf = (id: number): string | null => {
      if (!owners.has(id)) {
        const module = modules.get(id);
        const parent = parents.get(id);
        owners.set(id, module && isOwnCode(module) ? module : parent === undefined ? null : ownerOf(parent));
      }
      return owners.get(id)!;
    };
    let at = profile.startTime;
    for (const [i, id] of profile.samples.entries()) {
      const delta = (profile.timeDeltas[i] ?? 0) / 1000;
      at += profile.timeDeltas[i] ?? 0;
      const module = modules.get(id);
      if (!module || at < fromUs || at > toUs) continue;
      share(module).selfMs += delta;
      share(ownerOf(id) ?? module).chargedMs += delta;
    }
  }
  return [...shares.values()].sort((a, b) => b.chargedMs - a.chargedMs || b.selfMs - a.selfMs);
}

export function cpuTable(shares: CpuShare[], requests: number, top = 14): string[] {
  const total = shares.reduce((sum, s) => sum + s.selfMs, 0);
  const cell = (ms: number) => `${(ms / requests).toFixed(3)} (${((100 * ms) / total).toFixed(1)} %)`;
  return [
    `API process CPU: ${(total / requests).toFixed(3)} ms per request (${requests} requests); ms per request (share):`,
    '',
    '| module | with the node internals and natives it called | its own code only |',
    '|---|---|---|',
    ...shares.slice(0, top).map((s) => `| ${s.module} | ${cell(s.chargedMs)} | ${cell(s.selfMs)} |`),
  ];
}

interface TableStats {
  seqScan: number;
  idxScan: number;
  inserted: number;
  updated: number;
  hotUpdated: number;
  deleted: number;
  indexes: number;
}

interface StatementStats {
  query: string;
  calls: number;
  ms: number;
}

export interface PgSnapshot {
  commits: number;
  tables: Map<string, TableStats>;
  /** Null when pg_stat_statements is not loaded on the server. */
  statements: Map<string, StatementStats> | null;
}

/**
 * Marks the bench's own statements, which the statement report leaves out. After the first
 * keyword: pg_stat_statements keeps a statement's text from its first token, comments inside it.
 */
export const BENCH = '/* bench */';

/** pg_stat_statements works only when the server preloads it (shared_preload_libraries). */
export async function hasStatStatements(pool: pg.Pool): Promise<boolean> {
  try {
    await pool.query(`CREATE ${BENCH} EXTENSION IF NOT EXISTS pg_stat_statements`);
    await pool.query(`SELECT ${BENCH} 1 FROM pg_stat_statements LIMIT 1`);
    return true;
  } catch {
    return false;
  }
}

export async function pgSnapshot(pool: pg.Pool, withStatements: boolean): Promise<PgSnapshot> {
  const commits = await pool.query<{ n: number }>(
    `SELECT ${BENCH} xact_commit::float8 AS n FROM pg_stat_database WHERE datname = current_database()`,
  );
  const tables = await pool.query<TableStats & { name: string }>(
    `SELECT ${BENCH} schemaname || '.' || relname AS name, seq_scan::float8 AS "seqScan",
       coalesce(idx_scan, 0)::float8 AS "idxScan", n_tup_ins::float8 AS inserted, n_tup_upd::float8 AS updated,
       n_tup_hot_upd::float8 AS "hotUpdated", n_tup_del::float8 AS deleted,
       (SELECT count(*)::int FROM pg_index i WHERE i.indrelid = s.relid) AS indexes
     FROM pg_stat_user_tables s`,
  );
  let statements: Map<string, StatementStats> | null = null;
  if (withStatements) {
    const { rows } = await pool.query<StatementStats & { id: string }>(
      `SELECT ${BENCH} queryid::text AS id, min(query) AS query, sum(calls)::float8 AS calls,
         sum(total_exec_time) AS ms
       FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
         AND query NOT LIKE '%${BENCH}%'
       GROUP BY queryid`,
    );
    statements = new Map(rows.map(({ id, ...s }) => [id, s]));
  }
  return {
    commits: commits.rows[0]!.n,
    tables: new Map(tables.rows.map(({ name, ...t }) => [name, t])),
    statements,
  };
}

/**
 * A server's statistics reach the views when its backends end (else up to 10 s after they go
 * idle): wait until the only client backends left on the database are the bench's own.
 */
export async function waitForBackendsGone(pool: pg.Pool): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const { rows } = await pool.query<{ n: number }>(
      `SELECT ${BENCH} count(*)::int AS n FROM pg_stat_activity
       WHERE datname = current_database() AND backend_type = 'client backend'`,
    );
    if (rows[0]!.n <= pool.totalCount) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

const oneLine = (query: string, width = 100) => {
  const line = query.replace(/\s+/g, ' ').replace(/\|/g, '\\|').trim();
  return line.length > width ? `${line.slice(0, width - 1)}…` : line;
};
const per = (value: number, count: number) => (value / count).toFixed(2);

/** Statements per unit (order, request, change): pg_stat_statements, or else the counters. */
export function sqlTable(
  before: PgSnapshot,
  after: PgSnapshot,
  count: number,
  unit: string,
  top = 8,
): string[] {
  if (!before.statements || !after.statements) {
    const lines = [
      `pg_stat_statements is not loaded on this server: ${per(after.commits - before.commits, count)} transactions per ${unit} (each statement outside BEGIN…COMMIT is one), and scans:`,
      '',
      `| table | index scans per ${unit} | sequential scans per ${unit} |`,
      '|---|---|---|',
    ];
    for (const [name, t] of after.tables) {
      const was = before.tables.get(name);
      const idx = t.idxScan - (was?.idxScan ?? 0);
      const seq = t.seqScan - (was?.seqScan ?? 0);
      if ((idx + seq) / count >= 0.005) lines.push(`| ${name} | ${per(idx, count)} | ${per(seq, count)} |`);
    }
    return lines;
  }
  const was = before.statements;
  const deltas = [...after.statements]
    .map(([id, s]) => ({
      ...s,
      calls: s.calls - (was.get(id)?.calls ?? 0),
      ms: s.ms - (was.get(id)?.ms ?? 0),
    }))
    .filter((s) => s.calls > 0)
    .sort((a, b) => b.ms - a.ms);
  const calls = deltas.reduce((sum, s) => sum + s.calls, 0);
  const ms = deltas.reduce((sum, s) => sum + s.ms, 0);
  return [
    `SQL: ${per(calls, count)} statements and ${(ms / count).toFixed(3)} ms of execution per ${unit}, worker's included (pg_stat_statements):`,
    '',
    `| calls per ${unit} | mean ms | share of SQL time | statement |`,
    '|---|---|---|---|',
    ...deltas
      .slice(0, top)
      .map(
        (s) =>
          `| ${per(s.calls, count)} | ${(s.ms / s.calls).toFixed(3)} | ${((100 * s.ms) / ms).toFixed(1)} % | \`${oneLine(s.query)}\` |`,
      ),
  ];
}

/**
 * Rows written per unit and table, and the index entries they cost: each inserted row and each
 * non-HOT update adds one entry to every index of its table (an upper bound for partial indexes).
 */
export function writesTable(before: PgSnapshot, after: PgSnapshot, count: number, unit: string): string[] {
  const lines: string[] = [];
  let rows = 0;
  let entries = 0;
  for (const [name, t] of after.tables) {
    const was = before.tables.get(name);
    const ins = t.inserted - (was?.inserted ?? 0);
    const upd = t.updated - (was?.updated ?? 0);
    const hot = t.hotUpdated - (was?.hotUpdated ?? 0);
    const del = t.deleted - (was?.deleted ?? 0);
    if ((ins + upd + del) / count < 0.005) continue;
    rows += ins + upd + del;
    entries += (ins + upd - hot) * t.indexes;
    lines.push(
      `| ${name} | ${per(ins, count)} | ${per(upd, count)} (${per(hot, count)} HOT) | ${per(del, count)} | ${t.indexes} | ${per((ins + upd - hot) * t.indexes, count)} |`,
    );
  }
  return [
    `Rows written: ${per(rows, count)} per ${unit}, ≈ ${per(entries, count)} index entries:`,
    '',
    `| table | inserted | updated | deleted | indexes | ≈ index entries |`,
    '|---|---|---|---|---|---|',
    ...lines,
  ];
}
