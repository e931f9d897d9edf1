import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

/**
 * compose.yaml as the topology test and the artefact checks read it: parsed (YAML merge keys on, as
 * Docker Compose reads them), `${VAR}` / `${VAR:-default}` / `${VAR:?error}` interpolated from the
 * variables given, like `docker compose config` would.
 */

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const COMPOSE_FILE = `${ROOT}compose.yaml`;

/** The modes of the one program (runtime contract: `node dist/service.js <mode>`). */
export const SERVICE_MODES = ['api', 'worker', 'migrate', 'all'] as const;
export type ServiceMode = (typeof SERVICE_MODES)[number];

interface ComposeHealthcheck {
  test: string[] | string;
}

export interface ComposeService {
  image?: string;
  command?: string[] | string;
  environment?: Record<string, string | number | boolean | null>;
  healthcheck?: ComposeHealthcheck;
  depends_on?: string[] | Record<string, { condition?: string }>;
  deploy?: { replicas?: number };
  volumes?: string[];
  ports?: string[];
  stop_grace_period?: string;
  restart?: string;
}

export interface ComposeFile {
  services: Record<string, ComposeService>;
}

/** The variables compose.yaml interpolates (`${NAME…}`), in order of first appearance. */
export function interpolatedNames(text: string): string[] {
  return [...new Set([...text.matchAll(/\$\{([A-Z0-9_]+)[^}]*\}/g)].map((m) => m[1]!))];
}

function interpolate(text: string, vars: Record<string, string | undefined>): string {
  return text.replace(/\$\$|\$\{([A-Z0-9_]+)(?:(:?[-?])([^}]*))?\}/g, (match, name, op, arg) => {
    if (match === '$$') return '$';
    const value = vars[name];
    const unset = op?.startsWith(':') ? !value : value === undefined;
    if (op?.endsWith('-')) return unset ? arg : value!;
    if (op?.endsWith('?') && unset) throw new Error(`compose.yaml needs ${name}: ${arg}`);
    return value ?? '';
  });
}

/** compose.yaml with `vars` substituted (every `${X:?…}` it requires must be among them). */
export function readCompose(vars: Record<string, string | undefined>, file = COMPOSE_FILE): ComposeFile {
  const text = readFileSync(file, 'utf8');
  // Interpolated before parsing: compose.yaml puts no `$` in its comments or keys, only in values.
  const parsed = parse(interpolate(text, vars), { merge: true }) as ComposeFile;
  if (!parsed?.services) throw new Error('compose.yaml has no services');
  return parsed;
}

/** A service's command as an argument list. */
export function commandOf(service: ComposeService): string[] {
  const { command } = service;
  if (command === undefined) return [];
  return Array.isArray(command) ? command.map(String) : command.split(/\s+/).filter(Boolean);
}

/** The service's program mode when it runs the application's image (its command is one of the modes). */
export function modeOf(service: ComposeService): ServiceMode | null {
  const [first] = commandOf(service);
  return (SERVICE_MODES as readonly string[]).includes(first ?? '') ? (first as ServiceMode) : null;
}

/** The URL path a service's healthcheck asks for (`fetch('http://127.0.0.1:3000/readyz')` → `/readyz`). */
export function healthPathOf(service: ComposeService): string | null {
  const test = service.healthcheck?.test;
  const text = Array.isArray(test) ? test.join(' ') : (test ?? '');
  return /https?:\/\/[^/'"\s]+(\/[^'"\s)]*)/.exec(text)?.[1] ?? null;
}

export function environmentOf(service: ComposeService): Record<string, string> {
  return Object.fromEntries(
    Object.entries(service.environment ?? {}).map(([name, value]) => [
      name,
      value == null ? '' : String(value),
    ]),
  );
}

export function dependsOn(service: ComposeService): Record<string, string> {
  const deps = service.depends_on ?? {};
  if (Array.isArray(deps)) return Object.fromEntries(deps.map((name) => [name, 'service_started']));
  return Object.fromEntries(
    Object.entries(deps).map(([name, spec]) => [name, spec?.condition ?? 'service_started']),
  );
}

/**
 * How a mode is started here. After the runtime-contract build (`npm run build`) it is the image's
 * entry point with the compose command (`node dist/service.js <mode>`), or that same program from
 * its sources when dist/ is not built yet; before that program exists, the nearest commands of
 * today's tree (`src/server.ts` with RUN_WORKER=0, `dlv worker`, `dlv migrate`), so the harness can
 * be exercised. `flavour` says which, and the topology test prints it.
 */
export interface ServiceCommand {
  argv: string[];
  flavour: 'dist' | 'source' | 'pre-contract';
  /** Variables the command needs beside the compose environment (pre-contract only). */
  env: Record<string, string>;
  /**
   * The path that answers 200 once the process is ready: the compose healthcheck's (`/readyz`);
   * pre-contract, `/public/v1/ping` for the API and none for the worker (it serves no HTTP).
   */
  readyPath: string | null;
}

export function serviceCommand(mode: ServiceMode, healthPath: string | null, root = ROOT): ServiceCommand {
  const node = process.execPath;
  if (existsSync(`${root}dist/service.js`)) {
    return { argv: [node, 'dist/service.js', mode], flavour: 'dist', env: {}, readyPath: healthPath };
  }
  if (existsSync(`${root}src/service.ts`)) {
    return {
      argv: [node, '--import', 'tsx', 'src/service.ts', mode],
      flavour: 'source',
      env: {},
      readyPath: healthPath,
    };
  }
  switch (mode) {
    case 'api':
      return {
        argv: [node, '--import', 'tsx', 'src/server.ts'],
        flavour: 'pre-contract',
        env: { RUN_WORKER: '0' },
        readyPath: '/public/v1/ping',
      };
    case 'all':
      return {
        argv: [node, '--import', 'tsx', 'src/server.ts'],
        flavour: 'pre-contract',
        env: {},
        readyPath: '/public/v1/ping',
      };
    case 'worker':
      return { argv: [node, 'bin/dlv.js', 'worker'], flavour: 'pre-contract', env: {}, readyPath: null };
    case 'migrate':
      return { argv: [node, 'bin/dlv.js', 'migrate'], flavour: 'pre-contract', env: {}, readyPath: null };
  }
}
