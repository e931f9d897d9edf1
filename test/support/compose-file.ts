import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { argv, parseDockerfile } from './dockerfile.ts';

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
  /** The project's name (a Compose v2 key). */
  name?: string;
  services: Record<string, ComposeService>;
  /** Named volumes, shared by the services that mount them. */
  volumes?: Record<string, unknown>;
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
 * How a service of the application's image is started here: what the image runs, the final stage's
 * ENTRYPOINT (`node dist/service.js`) followed by the compose `command` (the mode), with this
 * machine's node. dist/ is built by the suites' build-setup before any test starts.
 */
export interface ServiceCommand {
  argv: string[];
  /** The path that answers 200 once the process is ready: the compose healthcheck's (`/readyz`). */
  readyPath: string | null;
}

export function serviceCommand(service: ComposeService, root = ROOT): ServiceCommand {
  const entrypoint = parseDockerfile(readFileSync(`${root}Dockerfile`, 'utf8'))
    .at(-1)
    ?.instructions.findLast((i) => i.keyword === 'ENTRYPOINT');
  if (!entrypoint) throw new Error('the Dockerfile has no ENTRYPOINT in its final stage');
  const [program, ...args] = [...argv(entrypoint), ...commandOf(service)];
  if (program !== 'node') throw new Error(`the image's entry point runs ${program}, not node`);
  if (!existsSync(`${root}${args[0]}`)) throw new Error(`${args[0]} is not built (npm run build)`);
  return { argv: [process.execPath, ...args], readyPath: healthPathOf(service) };
}
