/**
 * A Dockerfile read as the builder reads it, enough to check its invariants without a Docker engine:
 * continuation lines joined, comments and parser directives dropped, each instruction in its stage.
 */

export interface Instruction {
  keyword: string;
  args: string;
  /** Index of the stage (FROM) it belongs to. */
  stage: number;
}

export interface Stage {
  index: number;
  name: string | null;
  base: string;
  instructions: Instruction[];
}

export function parseDockerfile(text: string): Stage[] {
  const logical = text
    .split('\n')
    .filter((line) => !/^\s*#/.test(line))
    .join('\n')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  const stages: Stage[] = [];
  for (const line of logical) {
    const [, keyword = '', args = ''] = /^(\S+)\s*(.*)$/.exec(line) ?? [];
    const upper = keyword.toUpperCase();
    if (upper === 'FROM') {
      const [, base = '', name = null] = /^(?:--\S+\s+)*(\S+)(?:\s+AS\s+(\S+))?/i.exec(args) ?? [];
      stages.push({ index: stages.length, name, base, instructions: [] });
    }
    const stage = stages.at(-1);
    if (stage) stage.instructions.push({ keyword: upper, args, stage: stage.index });
  }
  return stages;
}

/** An instruction's arguments in exec form (`["node", "x.js"]`), or split on spaces in shell form. */
export function argv(instruction: Instruction): string[] {
  const trimmed = instruction.args.trim();
  if (trimmed.startsWith('[')) return JSON.parse(trimmed) as string[];
  return trimmed.split(/\s+/);
}

/** The variables an ENV instruction sets (`ENV A=1 B=2`, or the legacy `ENV A 1`). */
export function envNames(instruction: Instruction): string[] {
  const names = [...instruction.args.matchAll(/(?:^|\s)([A-Za-z_][A-Za-z0-9_]*)=/g)].map((m) => m[1]!);
  return names.length ? names : [instruction.args.split(/\s+/)[0]!];
}
