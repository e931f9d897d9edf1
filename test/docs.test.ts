/**
 * The README and docs/ describe this repository alone, their links and anchors lead somewhere, the
 * API guide's error table is complete, and the README stays a front door.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { allCommands } from '../src/cli/main.ts';
import { proofMembers } from '../src/domain/proofs/proof-json.ts';
import { ERROR_STATUS } from '../src/errors.ts';

const ROOT = resolve(import.meta.dirname, '..');

function markdownUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return markdownUnder(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}

const CONNECTOR_READMES = readdirSync(join(ROOT, 'connectors'))
  .map((name) => `connectors/${name}/README.md`)
  .filter((file) => existsSync(join(ROOT, file)));
const DOCS = ['README.md', ...markdownUnder('docs'), ...CONNECTOR_READMES];

/** The anchors GitHub gives a file: its headings' slugs (numbered when repeated) and explicit ids. */
function anchorsOf(file: string): Set<string> {
  const text = readFileSync(join(ROOT, file), 'utf8').replace(/^```[\s\S]*?^```/gm, '');
  const anchors = new Set([...text.matchAll(/<a id="([^"]+)">/g)].map((m) => m[1]!));
  const seen = new Map<string, number>();
  for (const [, heading] of text.matchAll(/^#{1,6} (.+)$/gm)) {
    const slug = heading!
      .replace(/<[^>]+>/g, '')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count ? `${slug}-${count}` : slug);
  }
  return anchors;
}

describe('documentation', () => {
  it.each(DOCS)('%s links only to files of the repository, which exist', (file) => {
    const text = readFileSync(join(ROOT, file), 'utf8');
    const targets = [...text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)|src="([^":]+)"/g)].map(
      (m) => (m[1] ?? m[2])!,
    );
    for (const target of targets.filter((t) => !/^[a-z]+:/.test(t))) {
      const path = resolve(ROOT, dirname(file), target);
      expect(relative(ROOT, path).startsWith('..'), `${file} → ${target}`).toBe(false);
      expect(existsSync(path), `${file} → ${target}`).toBe(true);
    }
    // Paths written as code rather than links: none may leave the repository either.
    expect(text.match(/`\.\.\/[^`]*`|\/work\/|shared\/SPEC/g), file).toBeNull();
  });

  it.each(DOCS)('%s links only to anchors that exist', (file) => {
    const text = readFileSync(join(ROOT, file), 'utf8');
    for (const [link, target, anchor] of text.matchAll(/\]\(([^)#\s]*)#([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target!)) continue;
      const path = relative(ROOT, resolve(ROOT, dirname(file), target || file.split('/').pop()!));
      if (!path.endsWith('.md') || !existsSync(join(ROOT, path))) continue;
      expect(anchorsOf(path).has(anchor!), `${file} → ${link}`).toBe(true);
    }
  });

  it("lists every error code with its status in the API guide's error table", () => {
    const guide = readFileSync(join(ROOT, 'docs/api-guide.md'), 'utf8');
    const rows = new Map(
      [...guide.matchAll(/^\| `([a-z_]+)` \| (\d{3}) \|/gm)].map((m) => [m[1]!, Number(m[2])] as const),
    );
    for (const [code, status] of Object.entries(ERROR_STATUS)) expect(rows.get(code), code).toBe(status);
  });

  // #36 item 27: the guide said the delivery webhooks did not carry the proof yet; they have since.
  it('says what the delivery webhooks carry of the proof: every member the door events sign', () => {
    const guide = readFileSync(join(ROOT, 'docs/proof-of-delivery.md'), 'utf8');
    const bullet = /^- \*\*Webhooks\*\*:[\s\S]*?(?=^- \*\*)/m.exec(guide)?.[0] ?? '';
    expect(bullet).not.toMatch(/\byet\b|are to carry/);
    const at = new Date('2026-11-25T10:30:00Z');
    const attempt = { receivedBy: 'Camille', latitude: 48.857, longitude: 2.352, filesErasedAt: null };
    const members = proofMembers(
      [
        {
          ...attempt,
          id: 'att_1',
          outcome: 'failed_attempt',
          reason: 'absent',
          happenedAt: at,
          photoKey: null,
          signatureKey: null,
        },
        {
          ...attempt,
          id: 'att_2',
          outcome: 'delivered',
          reason: null,
          happenedAt: at,
          photoKey: 'p',
          signatureKey: 's',
        },
      ],
      () => 'https://dlv.example.com/proofs/x',
    );
    const names = Object.entries(members).flatMap(([name, value]) => [name, ...Object.keys(value ?? {})]);
    for (const name of names) expect(bullet, name).toContain(`\`${name}\``);
    for (const event of ['order.delivered', 'order.delivery_failed', 'order.status_changed'])
      expect(bullet, event).toContain(`\`${event}\``);
    expect(bullet).toMatch(/\*\*7 days\*\*/);
  });

  it('keeps the README a front door: at most 15 KB, the rest in docs/', () => {
    expect(statSync(join(ROOT, 'README.md')).size).toBeLessThanOrEqual(15_000);
  });

  // npx resolves the package before each command: 1.6–2.5 s of every `dlv` (issue #36).
  it.each(DOCS)('%s runs dlv without npx', (file) => {
    expect(readFileSync(join(ROOT, file), 'utf8')).not.toMatch(/npx dlv/);
  });
});

/** The operator guide's list of `dlv` commands: the first code block under its `dlv` heading. */
function operatorGuideCommands(): string[] {
  const guide = readFileSync(join(ROOT, 'docs/operator-guide.md'), 'utf8');
  const section = guide.slice(guide.indexOf('## The `dlv` command line'));
  const block = /^```\n([\s\S]*?)^```/m.exec(section)![1]!;
  return block
    .split('\n')
    .filter((line) => line.startsWith('dlv '))
    .map((line) => line.replace(/\s+(#|→).*$/, '').trim());
}

/** Each `--flag` of a usage line, whether shown optional (in brackets, or one of alternatives `a | b`). */
function flagsOf(usage: string): { name: string; optional: boolean }[] {
  let depth = 0;
  const depths = [...usage].map((c) => {
    if (c === '[') depth++;
    const at = depth;
    if (c === ']') depth--;
    return at;
  });
  const found = [...usage.matchAll(/--([a-z][a-z-]*)/g)].map((m) => ({ name: m[1]!, at: m.index! }));
  return found.map((flag, i) => {
    const from = i > 0 ? found[i - 1]!.at : 0;
    const to = found[i + 1]?.at ?? usage.length;
    const alternative =
      usage.slice(from, flag.at).includes('|') && i > 0 ? true : usage.slice(flag.at, to).includes('|');
    return { name: flag.name, optional: depths[flag.at]! > 0 || alternative };
  });
}

describe("the operator guide's dlv command list", () => {
  const lines = operatorGuideCommands();

  it('lists every command once, and only commands dlv has', async () => {
    const paths = (await allCommands()).map((c) => c.path);
    const named = lines.map((line) => {
      const words = line.split(/\s+/).slice(1);
      const path = paths
        .filter((p) => p.split(' ').every((w, i) => words[i] === w))
        .sort((a, b) => b.length - a.length)[0];
      return path ?? (words[0] === 'completion' ? 'completion' : `unknown: ${line}`);
    });
    expect(named.filter((p) => p.startsWith('unknown'))).toEqual([]);
    expect(
      paths.filter((p) => !named.includes(p)),
      'missing',
    ).toEqual([]);
    expect(
      named.filter((p, i) => named.indexOf(p) !== i),
      'listed twice',
    ).toEqual([]);
  });

  it('shows a flag required exactly when dlv requires it, and only flags the command has (as in its --help)', async () => {
    const commands = await allCommands();
    for (const line of lines) {
      const words = line.split(/\s+/).slice(1);
      const spec = commands
        .filter((c) => c.path.split(' ').every((w, i) => words[i] === w))
        .sort((a, b) => b.path.length - a.path.length)[0];
      if (!spec) continue;
      const shown = flagsOf(line);
      const declared = spec.flags ?? {};
      for (const { name, optional } of shown) {
        if (name === 'json') continue;
        expect(declared[name], `${line}: --${name}`).toBeDefined();
        expect(optional, `${line}: --${name} shown ${optional ? 'optional' : 'required'}`).toBe(
          declared[name]?.required !== true,
        );
      }
      for (const [name, flag] of Object.entries(declared)) {
        expect(
          shown.some((f) => f.name === name),
          `${line}: --${name} (${flag.required ? 'required' : 'optional'}) is not shown`,
        ).toBe(true);
      }
    }
  });
});
