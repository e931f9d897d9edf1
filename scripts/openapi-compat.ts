/**
 * Fails when openapi.json breaks the contract of the last released document
 * (openapi/released/v1.json): a path, operation, parameter, response field, webhook event or enum
 * value taken away, a request made stricter (a new required field or parameter, an enum narrowed, a
 * type changed, a bound tightened). Additive changes pass, provided CHANGELOG.md says so: any change
 * to the document needs an entry under "Unreleased" or under the version `info.version` names.
 * docs/versioning.md is the promise this checks.
 *
 *   npm run openapi:compat
 *   node --import tsx scripts/openapi-compat.ts --released a.json --current b.json [--changelog C.md]
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

type Schema = Record<string, any>;
type Document = Record<string, any>;

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];
const NUMERIC_UPPER = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties'];
const NUMERIC_LOWER = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties'];

/** Which way data flows through a schema: what clients send may widen, what they read may not shrink. */
type Direction = 'request' | 'response';

export function breakingChanges(released: Document, current: Document): string[] {
  const problems: string[] = [];
  const resolve =
    (doc: Document) =>
    (schema: Schema | undefined): Schema | undefined => {
      let s = schema;
      for (let i = 0; s?.$ref && i < 20; i++) {
        s = s.$ref
          .split('/')
          .slice(1)
          .reduce((node: any, key: string) => node?.[key], doc);
      }
      return s;
    };
  const before = resolve(released);
  const after = resolve(current);

  const compareSchemas = (
    where: string,
    old: Schema | undefined,
    now: Schema | undefined,
    direction: Direction,
    seen: Set<string>,
  ): void => {
    const key = `${direction}:${where}`;
    if (seen.has(key) || seen.size > 5000) return;
    seen.add(key);
    const o = before(old);
    const n = after(now);
    if (!o) return;
    if (!n) {
      problems.push(`${where}: the schema was removed`);
      return;
    }
    const oldTypes = types(o);
    const newTypes = types(n);
    if (oldTypes && newTypes) {
      // A request may accept more types, a response may not return new ones (nor drop any that was sent? no: fewer is fine).
      const lost = direction === 'request' ? oldTypes.filter((t) => !newTypes.includes(t)) : [];
      const gained =
        direction === 'response' ? newTypes.filter((t) => !oldTypes.includes(t) && t !== 'integer') : [];
      if (lost.length) problems.push(`${where}: no longer accepts type ${lost.join(', ')}`);
      if (gained.length) problems.push(`${where}: may now be of type ${gained.join(', ')}`);
    }
    if (direction === 'request' && Array.isArray(o.enum)) {
      const removed = o.enum.filter((v: unknown) => !(n.enum ?? o.enum).some((w: unknown) => same(v, w)));
      if (removed.length)
        problems.push(`${where}: enum narrowed (${removed.map(String).join(', ')} removed)`);
    }
    if (direction === 'request' && !o.enum && Array.isArray(n.enum))
      problems.push(`${where}: now restricted to an enum`);
    if (direction === 'request') {
      for (const bound of NUMERIC_UPPER) {
        if (typeof n[bound] === 'number' && (typeof o[bound] !== 'number' || n[bound] < o[bound])) {
          problems.push(`${where}: ${bound} tightened (${o[bound] ?? 'none'} → ${n[bound]})`);
        }
      }
      for (const bound of NUMERIC_LOWER) {
        if (typeof n[bound] === 'number' && (typeof o[bound] !== 'number' || n[bound] > o[bound])) {
          problems.push(`${where}: ${bound} tightened (${o[bound] ?? 'none'} → ${n[bound]})`);
        }
      }
      if (n.pattern && n.pattern !== o.pattern) problems.push(`${where}: pattern changed`);
    }
    const oldProps: Record<string, Schema> = o.properties ?? {};
    const newProps: Record<string, Schema> = n.properties ?? {};
    const oldRequired = new Set<string>(o.required ?? []);
    const newRequired = new Set<string>(n.required ?? []);
    for (const name of Object.keys(oldProps)) {
      if (!(name in newProps)) {
        // A request field taken away is refused where unknown fields are (additionalProperties: false).
        if (direction === 'response' || n.additionalProperties === false) {
          problems.push(`${where}.${name}: removed`);
        }
        continue;
      }
      if (direction === 'response' && oldRequired.has(name) && !newRequired.has(name)) {
        problems.push(`${where}.${name}: no longer always present`);
      }
      compareSchemas(`${where}.${name}`, oldProps[name], newProps[name], direction, seen);
    }
    if (direction === 'request') {
      for (const name of newRequired) {
        if (!oldRequired.has(name)) problems.push(`${where}.${name}: newly required`);
      }
      if (o.additionalProperties !== false && n.additionalProperties === false) {
        problems.push(`${where}: now refuses unknown fields`);
      }
    }
    if (o.items || n.items) compareSchemas(`${where}[]`, o.items, n.items, direction, seen);
    for (const combinator of ['anyOf', 'oneOf'] as const) {
      const oldBranches: Schema[] = o[combinator] ?? [];
      const newBranches: Schema[] = n[combinator] ?? [];
      oldBranches.forEach((branch, i) => {
        if (newBranches[i])
          compareSchemas(`${where}(${combinator} ${i})`, branch, newBranches[i], direction, seen);
        else if (direction === 'request') problems.push(`${where}: ${combinator} branch ${i} removed`);
      });
    }
  };

  for (const [route, oldItem] of Object.entries<Record<string, any>>(released.paths ?? {})) {
    const newItem = current.paths?.[route];
    if (!newItem) {
      problems.push(`${route}: path removed`);
      continue;
    }
    for (const method of METHODS) {
      const oldOp = oldItem[method];
      if (!oldOp) continue;
      const op = `${method.toUpperCase()} ${route}`;
      const newOp = newItem[method];
      if (!newOp) {
        problems.push(`${op}: operation removed`);
        continue;
      }
      compareOperation(op, oldOp, newOp);
    }
  }
  for (const [event, oldItem] of Object.entries<Record<string, any>>(released.webhooks ?? {})) {
    const newItem = current.webhooks?.[event];
    if (!newItem) problems.push(`webhook ${event}: event removed`);
    else {
      // What the API sends is what receivers read: a webhook body is compared as a response.
      compareSchemas(
        `webhook ${event}`,
        oldItem.post?.requestBody?.content?.['application/json']?.schema,
        newItem.post?.requestBody?.content?.['application/json']?.schema,
        'response',
        new Set(),
      );
    }
  }
  return [...new Set(problems)];

  function compareOperation(op: string, oldOp: any, newOp: any): void {
    const parameters = (operation: any) =>
      new Map<string, any>(
        (operation.parameters ?? []).map((p: any) => [`${p.in}:${p.name.toLowerCase()}`, p]),
      );
    const oldParams = parameters(oldOp);
    const newParams = parameters(newOp);
    for (const [key, param] of oldParams) {
      const now = newParams.get(key);
      if (!now) problems.push(`${op}: parameter ${key} removed`);
      else {
        if (!param.required && now.required) problems.push(`${op}: parameter ${key} now required`);
        compareSchemas(`${op} parameter ${key}`, param.schema, now.schema, 'request', new Set());
      }
    }
    for (const [key, param] of newParams) {
      if (!oldParams.has(key) && param.required) problems.push(`${op}: new required parameter ${key}`);
    }
    const oldBody = oldOp.requestBody;
    const newBody = newOp.requestBody;
    if (!oldBody && newBody?.required) problems.push(`${op}: a request body is now required`);
    if (oldBody && newBody) {
      if (!oldBody.required && newBody.required) problems.push(`${op}: the request body is now required`);
      for (const [media, content] of Object.entries<any>(oldBody.content ?? {})) {
        const now = newBody.content?.[media];
        if (!now) problems.push(`${op}: request body ${media} no longer accepted`);
        else compareSchemas(`${op} body`, content.schema, now.schema, 'request', new Set());
      }
    }
    for (const [status, response] of Object.entries<any>(oldOp.responses ?? {})) {
      if (!/^2/.test(status)) continue;
      const now = newOp.responses?.[status];
      if (!now) {
        problems.push(`${op}: response ${status} removed`);
        continue;
      }
      for (const [media, content] of Object.entries<any>(response.content ?? {})) {
        const nowContent = now.content?.[media];
        if (!nowContent) problems.push(`${op}: response ${status} ${media} removed`);
        else compareSchemas(`${op} ${status}`, content.schema, nowContent.schema, 'response', new Set());
      }
    }
  }
}

function types(schema: Schema): string[] | null {
  if (schema.type === undefined) return null;
  const list: string[] = Array.isArray(schema.type) ? schema.type : [schema.type];
  // An integer is a number: number → integer narrows a request, integer → number widens it.
  return list.flatMap((t) => (t === 'number' ? ['number', 'integer'] : [t]));
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Whether the changelog covers a changed document: a non-empty "Unreleased" section, or a section
 * for the document's `info.version`.
 */
export function changelogCovers(changelog: string, version: string): boolean {
  const sections = changelog.split(/^## /m).slice(1);
  const named = (title: string) => sections.find((s) => s.startsWith(`[${title}]`));
  const unreleased = named('Unreleased');
  const hasEntries = (section: string | undefined) =>
    section !== undefined && /^\s*[-*] \S/m.test(section.split('\n').slice(1).join('\n'));
  return hasEntries(unreleased) || named(version) !== undefined;
}

function main(): void {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const arg = (name: string, fallback: string) => {
    const i = process.argv.indexOf(`--${name}`);
    return path.resolve(root, i > 0 ? process.argv[i + 1]! : fallback);
  };
  const releasedFile = arg('released', 'openapi/released/v1.json');
  const currentFile = arg('current', 'openapi.json');
  const released = JSON.parse(readFileSync(releasedFile, 'utf8'));
  const current = JSON.parse(readFileSync(currentFile, 'utf8'));
  const problems = breakingChanges(released, current);
  if (problems.length) {
    console.error(
      `${path.relative(root, currentFile)} breaks the released contract (${path.relative(root, releasedFile)}); ` +
        'see docs/versioning.md — deprecate and add instead, or plan /v2:',
    );
    for (const problem of problems) console.error(`  - ${problem}`);
    process.exit(1);
  }
  const changed = JSON.stringify(released) !== JSON.stringify(current);
  const changelog = readFileSync(arg('changelog', 'CHANGELOG.md'), 'utf8');
  if (changed && !changelogCovers(changelog, current.info?.version ?? '')) {
    console.error(
      `${path.relative(root, currentFile)} differs from the released document (additively) but CHANGELOG.md has no ` +
        `entry under [Unreleased] nor a section [${current.info?.version}]: describe the change.`,
    );
    process.exit(1);
  }
  console.log(
    changed
      ? `${path.relative(root, currentFile)}: additive changes only, described in the changelog.`
      : `${path.relative(root, currentFile)} is the released contract.`,
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
