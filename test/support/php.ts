import { execFile, execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';

/** Where a command is on PATH, or null. */
export function commandPath(name: string): string | null {
  try {
    return execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
}

/** Whether a command is on PATH (Debian's php-cli and phpunit are optional on developer machines). */
export function hasCommand(name: string): boolean {
  return commandPath(name) !== null;
}

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end, never throwing on a non-zero exit. */
export function run(
  command: string,
  args: string[],
  options: { cwd?: string; env?: Record<string, string> } = {},
) {
  return new Promise<Run>((resolve) => {
    execFile(
      command,
      args,
      { cwd: options.cwd, env: { ...process.env, ...options.env }, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** Every .php file under a folder. */
export function phpFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.php'))
    .map((file) => path.join(dir, file));
}
