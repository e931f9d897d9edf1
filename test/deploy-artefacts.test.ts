/**
 * The deployment artefacts (Dockerfile, compose.yaml, deploy/haproxy.cfg, deploy/kubernetes/) hold
 * together without a Docker engine or a cluster: the image is multi-stage, compiled, non-root, with
 * production dependencies only; every variable they set is one the service reads (ENV_SCHEMA) or
 * one its platform documents; every probe path answers in the app; the drain outlasts the load
 * balancer's detection and the orchestrators' grace periods outlast the drain. The topology itself
 * runs in `npm run test:topology`.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { ENV_SCHEMA } from '../src/config.ts';
import { buildTestApp, type TestApp } from './support/app.ts';
import {
  commandOf,
  dependsOn,
  environmentOf,
  healthPathOf,
  interpolatedNames,
  modeOf,
  ROOT,
  readCompose,
  SERVICE_MODES,
  serviceCommand,
} from './support/compose-file.ts';
import { argv, envNames, parseDockerfile } from './support/dockerfile.ts';
import { renderHaproxyConfig } from './support/haproxy.ts';
import { findBinary } from './support/topology-infra.ts';

const KNOWN = new Set(Object.keys(ENV_SCHEMA.properties));
/** The postgres image's own variables (hub.docker.com/_/postgres), set on the postgres service only. */
const POSTGRES_IMAGE_VARS = new Set(['POSTGRES_USER', 'POSTGRES_PASSWORD', 'POSTGRES_DB']);
/** compose.yaml's own knobs (interpolated, never passed to the service as such), documented in docs/operations.md. */
const COMPOSE_KNOBS = ['DLV_IMAGE', 'POSTGRES_PASSWORD', 'HTTP_PORT', 'API_DATABASE_POOL_SIZE'];

/** Node's own (nodejs.org/api/cli.html#node_optionsoptions): the image caps V8's young generation with it. */
const NODE_VARS = new Set(['NODE_OPTIONS']);

const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const unknown = (names: Iterable<string>) =>
  [...names].filter((name) => !KNOWN.has(name) && !NODE_VARS.has(name));

const DOCKERFILE = parseDockerfile(read('Dockerfile'));
const FINAL = DOCKERFILE.at(-1)!;
const finalOf = (keyword: string) => FINAL.instructions.filter((i) => i.keyword === keyword);

// Every `${X:?…}` compose.yaml requires, given; every other variable keeps its default.
const COMPOSE = readCompose({ POSTGRES_PASSWORD: 'x', CURSOR_SECRET: 'y'.repeat(64) });
const APP_SERVICES = Object.entries(COMPOSE.services).filter(([, s]) => modeOf(s) !== null);
const APIS = APP_SERVICES.filter(([, s]) => modeOf(s) === 'api');

const HAPROXY = read('deploy/haproxy.cfg');

interface K8sObject {
  kind: string;
  metadata: { name: string };
  spec?: any;
  data?: Record<string, string>;
  stringData?: Record<string, string>;
}
const K8S: K8sObject[] = readdirSync(join(ROOT, 'deploy/kubernetes'))
  .filter((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml')
  .flatMap((f) => parseAllDocuments(read(`deploy/kubernetes/${f}`)).map((d) => d.toJS() as K8sObject))
  .filter(Boolean);
const ofKind = (kind: string) => K8S.filter((o) => o.kind === kind);
const podSpec = (o: K8sObject) => o.spec.template.spec;
const containers = (o: K8sObject): any[] => podSpec(o).containers;

/** The smallest SHUTDOWN_DRAIN_MS the artefacts set (compose's default, the ConfigMap's). */
const DRAIN_MS = Math.min(
  ...APIS.map(([, s]) => Number(environmentOf(s).SHUTDOWN_DRAIN_MS)),
  Number(ofKind('ConfigMap')[0]?.data?.SHUTDOWN_DRAIN_MS),
);

describe('Dockerfile', () => {
  it('builds in one stage with every dependency and runs from another with dist/ and production dependencies only', () => {
    expect(DOCKERFILE.length).toBeGreaterThanOrEqual(2);
    const build = DOCKERFILE.find((s) => s.instructions.some((i) => /npm run build/.test(i.args)));
    expect(build, 'a stage runs `npm run build`').toBeDefined();
    expect(build).not.toBe(FINAL);
    expect(
      build!.instructions.some((i) => i.keyword === 'RUN' && /npm ci(?!.*--omit=dev)/.test(i.args)),
    ).toBe(true);

    const installs = finalOf('RUN').filter((i) => /npm (ci|install|i)\b/.test(i.args));
    expect(installs.length).toBe(1);
    for (const run of installs) expect(run.args).toMatch(/npm ci\b.*--omit=dev/);
    expect(finalOf('RUN').some((i) => /npm run build|tsc|tsx/.test(i.args))).toBe(false);
    const copies = finalOf('COPY').map((i) => i.args);
    expect(copies).toContainEqual(expect.stringMatching(new RegExp(`^--from=${build!.name}\\s+\\S*dist\\s`)));
    // What the compiled code reads beside itself: the migrations and the data files.
    expect(copies.some((c) => /^migrations\s/.test(c))).toBe(true);
    expect(copies.some((c) => /^data\s/.test(c))).toBe(true);
  });

  it('runs as a user other than root', () => {
    const users = finalOf('USER');
    expect(users.length).toBeGreaterThan(0);
    expect(users.at(-1)!.args).not.toMatch(/^(root|0)(:|$)/);
    // Nothing runs after USER as root again, and the entry point comes after it.
    const at = (i: (typeof FINAL.instructions)[number]) => FINAL.instructions.indexOf(i);
    expect(at(finalOf('ENTRYPOINT')[0]!)).toBeGreaterThan(at(users.at(-1)!));
  });

  it('enters dist/service.js with the mode as its command', () => {
    expect(argv(finalOf('ENTRYPOINT').at(-1)!)).toEqual(['node', 'dist/service.js']);
    const [mode] = argv(finalOf('CMD').at(-1)!);
    expect(SERVICE_MODES).toContain(mode);
  });

  it('checks its health on /livez with node (the slim image has no curl)', () => {
    const check = finalOf('HEALTHCHECK').at(-1)!.args;
    expect(check).toContain('/livez');
    expect(check).not.toMatch(/\b(curl|wget)\b/);
  });

  it('sets and reads only variables the config schema knows', () => {
    const names = [
      ...DOCKERFILE.flatMap((s) => s.instructions.filter((i) => i.keyword === 'ENV').flatMap(envNames)),
      ...[...read('Dockerfile').matchAll(/process\.env\.([A-Z0-9_]+)/g)].map((m) => m[1]!),
    ];
    expect(names.length).toBeGreaterThan(0);
    expect(unknown(names)).toEqual([]);
  });

  it('copies only files that exist and that .dockerignore lets through', () => {
    const ignored = read('.dockerignore')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#'));
    const sources = DOCKERFILE.flatMap((s) => s.instructions)
      .filter((i) => i.keyword === 'COPY' && !i.args.startsWith('--from'))
      .flatMap((i) => i.args.split(/\s+/).slice(0, -1));
    expect(sources.length).toBeGreaterThan(0);
    for (const source of sources) {
      expect(existsSync(join(ROOT, source)), source).toBe(true);
      expect(ignored, source).not.toContain(source);
    }
    // The build context never carries the developer's node_modules, dist or database.
    expect(ignored).toEqual(expect.arrayContaining(['node_modules', 'dist', '.git', 'data/pg']));
  });
});

describe('compose.yaml', () => {
  it('runs PostgreSQL 15 and Redis 7 with health checks', () => {
    const { postgres, redis } = COMPOSE.services;
    expect(postgres?.image).toBe('postgres:15');
    expect(redis?.image).toBe('redis:7');
    expect(postgres?.healthcheck?.test).toContain('pg_isready');
    expect(redis?.healthcheck?.test).toEqual(expect.arrayContaining(['redis-cli', 'ping']));
  });

  it("gives the topology test the image's command for each service: the entry point, then the mode", () => {
    for (const [name, service] of APP_SERVICES) {
      const command = serviceCommand(service);
      expect(command.argv, name).toEqual([process.execPath, 'dist/service.js', modeOf(service)]);
      expect(command.readyPath, name).toBe(healthPathOf(service));
    }
  });

  it('migrates once, then starts the workers and the APIs', () => {
    const modes = APP_SERVICES.map(([, s]) => modeOf(s));
    expect(modes).toEqual(expect.arrayContaining(['migrate', 'worker', 'api']));
    const [[migrateName, migrate]] = APP_SERVICES.filter(([, s]) => modeOf(s) === 'migrate') as [
      [string, (typeof APP_SERVICES)[number][1]],
    ];
    expect(migrate.restart).toBe('no');
    expect(dependsOn(migrate).postgres).toBe('service_healthy');
    for (const [name, service] of APP_SERVICES.filter(([, s]) => modeOf(s) !== 'migrate')) {
      expect(dependsOn(service)[migrateName], name).toBe('service_completed_successfully');
      // The migrate service has done it: an instance starting never migrates.
      expect(environmentOf(service).MIGRATE_ON_START, name).toBe('0');
    }
  });

  it('runs two API instances, ready on /readyz, drained longer than haproxy takes to notice, stopped after the drain', () => {
    expect(APIS.length).toBeGreaterThanOrEqual(2);
    const inter = Number(/\binter\s+(\d+)s/.exec(HAPROXY)?.[1]) * 1000;
    const fastinter = Number(/\bfastinter\s+(\d+)ms/.exec(HAPROXY)?.[1]);
    const fall = Number(/\bfall\s+(\d+)/.exec(HAPROXY)?.[1]);
    // At worst a check has just passed when SIGTERM arrives: the next one in `inter`, then fall - 1 more.
    const detection = inter + (fall - 1) * fastinter;
    expect(detection).toBeGreaterThan(0);
    for (const [name, service] of APIS) {
      expect(commandOf(service)).toEqual(['api']);
      expect(healthPathOf(service), name).toBe('/readyz');
      const drain = Number(environmentOf(service).SHUTDOWN_DRAIN_MS);
      expect(drain, name).toBeGreaterThanOrEqual(2 * detection);
      expect(Number.parseInt(service.stop_grace_period ?? '10', 10) * 1000, name).toBeGreaterThan(
        drain + 5000,
      );
    }
  });

  it('puts haproxy with the committed configuration in front of exactly the API instances', () => {
    const lb = Object.values(COMPOSE.services).find((s) => s.image?.startsWith('haproxy'));
    expect(lb?.volumes).toContainEqual(expect.stringMatching(/^\.\/deploy\/haproxy\.cfg:/));
    const servers = [...HAPROXY.matchAll(/^\s*server\s+(\S+)\s+(\S+)/gm)].map((m) => [m[1], m[2]]);
    expect(servers).toEqual(APIS.map(([name]) => [name, `${name}:3000`]));
    expect(HAPROXY).toMatch(/http-check send meth GET uri \/readyz/);
    expect(HAPROXY).toMatch(/retry-on\s.*conn-failure/);
    expect(HAPROXY).toMatch(/option redispatch/);
  });

  it('passes the services only variables the config schema knows (postgres: its image’s own)', () => {
    for (const [name, service] of Object.entries(COMPOSE.services)) {
      const names = Object.keys(environmentOf(service));
      if (name === 'postgres') expect(names.filter((n) => !POSTGRES_IMAGE_VARS.has(n))).toEqual([]);
      else expect(unknown(names), name).toEqual([]);
    }
  });

  it('interpolates only settings of the service or its own documented knobs', () => {
    const names = interpolatedNames(read('compose.yaml'));
    expect(names.filter((n) => !KNOWN.has(n) && !COMPOSE_KNOBS.includes(n))).toEqual([]);
    const operations = read('docs/operations.md');
    for (const knob of COMPOSE_KNOBS) expect(operations, knob).toContain(`\`${knob}\``);
  });
});

describe('deploy/haproxy.cfg', () => {
  it.skipIf(!findBinary('haproxy'))('is a configuration haproxy accepts', () => {
    // Names it cannot resolve here are warnings (init-addr none): the servers start disabled.
    execFileSync(findBinary('haproxy')!, ['-c', '-f', join(ROOT, 'deploy/haproxy.cfg')], { stdio: 'pipe' });
  });

  it.skipIf(!findBinary('haproxy'))(
    'as the topology test renders it (servers on loopback ports), is accepted without a warning',
    async () => {
      const dir = await mkdtemp(join(tmpdir(), 'dlv-haproxy-'));
      try {
        const file = join(dir, 'haproxy.cfg');
        const ports = Object.fromEntries(APIS.map(([name], i) => [name, 40_001 + i]));
        const rendered = renderHaproxyConfig(HAPROXY, ports, 40_100, 40_101);
        for (const [name, port] of Object.entries(ports))
          expect(rendered).toContain(`server ${name} 127.0.0.1:${port}`);
        expect(rendered).toContain('bind 127.0.0.1:40100');
        expect(rendered).not.toMatch(/resolvers/);
        await writeFile(file, rendered);
        const result = spawnSync(findBinary('haproxy')!, ['-c', '-f', file], { encoding: 'utf8' });
        expect(result.status, result.stderr).toBe(0);
        expect(result.stderr).not.toMatch(/WARNING|ALERT/);
        // Every server the committed file names must be started by compose; none may be left out.
        expect(() => renderHaproxyConfig(HAPROXY, { 'api-1': 1 }, 2, 3)).toThrow(/api-2/);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  );

  it('names no environment variable the service does not know', () => {
    expect(unknown([...HAPROXY.matchAll(/\$\{?([A-Z][A-Z0-9_]*)/g)].map((m) => m[1]!))).toEqual([]);
  });
});

describe('deploy/kubernetes', () => {
  it('has api and worker Deployments, a migrate Job, a Service and a PodDisruptionBudget for each Deployment', () => {
    const deployments = ofKind('Deployment');
    expect(deployments.map((d) => containers(d)[0].args)).toEqual(
      expect.arrayContaining([['api'], ['worker']]),
    );
    expect(ofKind('Job').map((j) => containers(j)[0].args)).toEqual([['migrate']]);
    const api = deployments.find((d) => containers(d)[0].args[0] === 'api')!;
    const selects = (selector: Record<string, string>, o: K8sObject) =>
      Object.entries(selector).every(([k, v]) => o.spec.template.metadata.labels[k] === v);
    expect(ofKind('Service').some((s) => selects(s.spec.selector, api))).toBe(true);
    for (const d of deployments) {
      expect(
        ofKind('PodDisruptionBudget').some((p) => selects(p.spec.selector.matchLabels, d)),
        d.metadata.name,
      ).toBe(true);
      expect(d.spec.replicas, d.metadata.name).toBeGreaterThanOrEqual(2);
    }
  });

  it('probes liveness on /livez and readiness on /readyz, and gives a stopping pod longer than the drain', () => {
    for (const d of ofKind('Deployment')) {
      for (const c of containers(d)) {
        expect(c.livenessProbe.httpGet.path, d.metadata.name).toBe('/livez');
        expect(c.readinessProbe.httpGet.path, d.metadata.name).toBe('/readyz');
      }
      expect(podSpec(d).terminationGracePeriodSeconds * 1000, d.metadata.name).toBeGreaterThan(
        DRAIN_MS + 5000,
      );
      expect(podSpec(d).securityContext.runAsNonRoot).toBe(true);
    }
  });

  it('sets only variables the config schema knows (env, ConfigMap and Secret keys)', () => {
    const names = [
      ...K8S.filter((o) => o.kind === 'Deployment' || o.kind === 'Job').flatMap((o) =>
        containers(o).flatMap((c) => (c.env ?? []).map((e: { name: string }) => e.name)),
      ),
      ...ofKind('ConfigMap').flatMap((o) => Object.keys(o.data ?? {})),
      ...ofKind('Secret').flatMap((o) => Object.keys({ ...o.data, ...o.stringData })),
    ];
    expect(names.length).toBeGreaterThan(5);
    expect(unknown(names)).toEqual([]);
    // Every ConfigMap and Secret a container reads is one of the example's.
    const refs = K8S.filter((o) => o.kind === 'Deployment' || o.kind === 'Job').flatMap((o) =>
      containers(o).flatMap((c) => [
        ...(c.envFrom ?? []).map((e: any) => (e.configMapRef ?? e.secretRef).name),
        ...(c.env ?? []).flatMap((e: any) =>
          e.valueFrom?.secretKeyRef ? [e.valueFrom.secretKeyRef.name] : [],
        ),
      ]),
    );
    const defined = new Set([...ofKind('ConfigMap'), ...ofKind('Secret')].map((o) => o.metadata.name));
    expect(refs.filter((r) => !defined.has(r))).toEqual([]);
  });
});

describe('every probe path the artefacts name', () => {
  const paths = new Set<string>([
    ...APP_SERVICES.map(([, s]) => healthPathOf(s)).filter((p): p is string => p !== null),
    /\/livez/.exec(finalOf('HEALTHCHECK').at(-1)!.args)![0],
    /http-check send meth GET uri (\S+)/.exec(HAPROXY)![1]!,
    ...ofKind('Deployment').flatMap((d) =>
      containers(d).flatMap((c) =>
        [c.livenessProbe, c.readinessProbe, c.startupProbe].filter(Boolean).map((p) => p.httpGet.path),
      ),
    ),
  ]);
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t?.close());

  it.each([...paths])('%s answers 200 on a ready instance', async (path) => {
    const response = await t.app.inject({ method: 'GET', url: path });
    expect(response.statusCode, response.body).toBe(200);
  });
});

describe('the optional engines of places (docs/places.md)', () => {
  it('are compose services of the `places` profile only, which the app reaches through GEOCODER_URL and OSRM_URL', () => {
    const places = Object.entries(COMPOSE.services).filter(
      ([, s]) => (s as { profiles?: string[] }).profiles,
    );
    expect(places.map(([name, s]) => [name, (s as { profiles?: string[] }).profiles])).toEqual([
      ['addok', ['places']],
      ['addok-redis', ['places']],
      ['osrm', ['places']],
    ]);
    expect(COMPOSE.services.osrm?.command).toContain('--max-table-size');
    for (const [, service] of APP_SERVICES) {
      expect(environmentOf(service)).toMatchObject({ GEOCODER_URL: '', OSRM_URL: '' });
    }
  });

  it('are a Kubernetes kustomization of their own, each a Deployment and the Service its URL names', () => {
    const dir = 'deploy/kubernetes/places';
    const kustomization = parseAllDocuments(read(`${dir}/kustomization.yaml`))[0]!.toJS() as {
      resources: string[];
    };
    const objects = kustomization.resources.flatMap((f) =>
      parseAllDocuments(read(`${dir}/${f}`)).map((d) => d.toJS() as K8sObject),
    );
    const service = (name: string) => objects.find((o) => o.kind === 'Service' && o.metadata.name === name);
    expect(service('addok')?.spec.ports[0].port).toBe(7878);
    expect(service('osrm')?.spec.ports[0].port).toBe(5000);
    expect(objects.filter((o) => o.kind === 'Deployment').map((o) => o.metadata.name)).toEqual([
      'addok',
      'osrm',
    ]);
    expect(read(`${dir}/kustomization.yaml`)).toContain('GEOCODER_URL: http://addok:7878');
    expect(read(`${dir}/kustomization.yaml`)).toContain('OSRM_URL: http://osrm:5000');
  });
});
