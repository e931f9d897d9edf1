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
import { ENV_SCHEMA, loadConfig } from '../src/config.ts';
import { READINESS_DATABASE_TIMEOUT_MS } from '../src/runtime/readiness.ts';
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
import { parseDockerIgnore } from './support/dockerignore.ts';
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
const DOCKER_IGNORE = parseDockerIgnore(read('.dockerignore'));
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

/**
 * The settings of ENV_SCHEMA that are no deployment's business, and why: every other one is one an
 * operator may set, so both examples pass it on (issue #36: OBJECT_STORE, S3_*, SELLER_*, DKIM_*,
 * MAIL_FROM… were missing, so setting them in the environment did nothing).
 */
const NOT_FOR_DEPLOYMENTS: Record<string, string> = {
  EMBEDDED_PG_ROOT_DIR: 'the embedded PostgreSQL only (development); a deployment has DATABASE_URL',
  RUN_WORKER: '`all` mode only (npm start); the examples run api and worker processes',
  WEBHOOKS_ALLOW_INSECURE: 'development only: http and loopback webhook receivers',
  CONNECTORS_ALLOW_INSECURE: 'development only: http and loopback shops',
  SHOPIFY_ADMIN_ORIGIN_TEMPLATE: 'tests only: a fake Shopify',
  TWILIO_API_BASE: 'tests only: a fake Twilio',
};

/** Credentials: in the Secret, never in the ConfigMap. */
const CREDENTIALS = [
  'DATABASE_URL',
  'REDIS_URL',
  'CURSOR_SECRET',
  'CONNECTOR_SECRET_KEY',
  'RECIPIENT_DATA_KEY',
  'OPS_TOKEN',
  'METRICS_TOKEN',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
  'SMTP_URL',
  'DKIM_PRIVATE_KEY',
  'TWILIO_AUTH_TOKEN',
  'SHOPIFY_API_SECRET',
];

/** The variables the image sets itself (its ENV): every container of either example has them. */
const IMAGE_ENV = Object.fromEntries(
  finalOf('ENV').flatMap((i) =>
    [...i.args.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=(\S*)/g)].map((m) => [m[1]!, m[2]!] as const),
  ),
);

/** What a container of a Deployment or Job sees: the image's ENV, its ConfigMap and Secret, its own env. */
function containerEnv(o: K8sObject): Record<string, string> {
  const [container] = containers(o);
  const env: Record<string, string> = { ...IMAGE_ENV };
  for (const from of container.envFrom ?? []) {
    const name = (from.configMapRef ?? from.secretRef).name;
    const source = K8S.find(
      (x) => (x.kind === 'ConfigMap' || x.kind === 'Secret') && x.metadata.name === name,
    );
    Object.assign(env, source?.data, source?.stringData);
  }
  for (const e of container.env ?? []) if (e.value !== undefined) env[e.name] = String(e.value);
  return env;
}

const KUSTOMIZATION = parseAllDocuments(read('deploy/kubernetes/kustomization.yaml'))[0]!.toJS() as {
  resources: string[];
  images: { name: string; newTag: string }[];
};

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
    const sources = DOCKERFILE.flatMap((s) => s.instructions)
      .filter((i) => i.keyword === 'COPY' && !i.args.startsWith('--from'))
      .flatMap((i) => i.args.split(/\s+/).slice(0, -1));
    expect(sources.length).toBeGreaterThan(0);
    for (const source of sources) {
      expect(existsSync(join(ROOT, source)), source).toBe(true);
      expect(DOCKER_IGNORE.excludes(source), source).toBe(false);
    }
    // The build context never carries the developer's node_modules, dist or what a local run wrote in
    // data/ (the embedded database and its credentials, e-mails, SMS, proof photos): only the data
    // files the repository holds.
    for (const local of [
      'node_modules',
      'dist',
      '.git',
      'data/pg/PG_VERSION',
      'data/pg-credentials.json',
      'data/mail/x.eml',
      'data/sms/x.txt',
      'data/objects/proofs/x.jpg',
    ]) {
      expect(DOCKER_IGNORE.excludes(local), local).toBe(true);
    }
    const tracked = execFileSync('git', ['ls-files', 'data'], { cwd: ROOT, encoding: 'utf8' }).split('\n');
    for (const file of tracked.filter(Boolean)) expect(DOCKER_IGNORE.excludes(file), file).toBe(false);
  });

  it('installs before the sources are there without running the package’s own scripts, and copies what the build reads', () => {
    const build = DOCKERFILE.find((s) => s.instructions.some((i) => /npm run build/.test(i.args)))!;
    const install = build.instructions.find((i) => i.keyword === 'RUN' && /npm ci\b/.test(i.args))!;
    const copiedBefore = build.instructions
      .slice(0, build.instructions.indexOf(install))
      .filter((i) => i.keyword === 'COPY')
      .flatMap((i) => i.args.split(/\s+/).slice(0, -1));
    // npm ci runs `prepare` (scripts/build.js) unless told not to.
    if (!copiedBefore.includes('scripts')) expect(install.args).toContain('--ignore-scripts');
    const copied = build.instructions
      .filter((i) => i.keyword === 'COPY')
      .flatMap((i) => i.args.split(/\s+/).slice(0, -1));
    for (const input of ['tsconfig.json', 'tsconfig.build.json', 'src', 'scripts'])
      expect(copied, input).toContain(input);
  });
});

describe('compose.yaml', () => {
  it('says it needs Compose v2 (its top-level `name:`), in the file and in docs/operations.md', () => {
    if (COMPOSE.name === undefined) return;
    expect(read('compose.yaml')).toMatch(/Compose v2/);
    expect(read('docs/operations.md')).toMatch(/Compose v2/);
  });

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

describe('compose.yaml and deploy/kubernetes together', () => {
  const composeNames = new Set([
    ...Object.keys(IMAGE_ENV),
    ...APP_SERVICES.flatMap(([, s]) => Object.keys(environmentOf(s))),
  ]);
  const k8sNames = new Set([
    ...Object.keys(IMAGE_ENV),
    ...ofKind('ConfigMap').flatMap((o) => Object.keys(o.data ?? {})),
    ...ofKind('Secret').flatMap((o) => Object.keys({ ...o.data, ...o.stringData })),
    ...[...ofKind('Deployment'), ...ofKind('Job')].flatMap((o) =>
      containers(o).flatMap((c) => (c.env ?? []).map((e: { name: string }) => e.name)),
    ),
  ]);

  it('pass on every setting an operator may set (the rest: development and tests only, said why)', () => {
    expect(Object.keys(NOT_FOR_DEPLOYMENTS).filter((name) => !KNOWN.has(name))).toEqual([]);
    const settings = [...KNOWN].filter((name) => !(name in NOT_FOR_DEPLOYMENTS));
    expect(
      settings.filter((name) => !composeNames.has(name)),
      'compose.yaml',
    ).toEqual([]);
    expect(
      settings.filter((name) => !k8sNames.has(name)),
      'deploy/kubernetes',
    ).toEqual([]);
  });

  it('let every replica find the proof-of-delivery files another stored (a bucket, or one shared volume)', () => {
    // compose: the filesystem store on one named volume at the image's DATA_DIR, or a bucket.
    const dataDir = IMAGE_ENV.DATA_DIR;
    expect(dataDir).toBeTruthy();
    const mounts = new Set<string>();
    for (const [name, service] of APP_SERVICES.filter(([, s]) => ['api', 'worker'].includes(modeOf(s)!))) {
      const env = environmentOf(service);
      if (env.OBJECT_STORE === 's3') {
        expect(env.S3_BUCKET, name).toBeTruthy();
        continue;
      }
      const volume = (service.volumes ?? []).find((v) => v.split(':')[1] === dataDir)?.split(':')[0];
      expect(volume, `${name} mounts a named volume at ${dataDir}`).toBeDefined();
      expect(Object.keys(COMPOSE.volumes ?? {}), name).toContain(volume);
      mounts.add(volume!);
    }
    expect(mounts.size).toBeLessThanOrEqual(1);
    // Kubernetes: a pod's own files are its own, so a bucket (no ReadWriteMany volume is assumed).
    for (const d of ofKind('Deployment')) {
      const env = containerEnv(d);
      expect(env.OBJECT_STORE, d.metadata.name).toBe('s3');
      expect(env.S3_BUCKET, d.metadata.name).toBeTruthy();
    }
  });

  it('give every process a configuration it starts with (no placeholder a pod or a container dies of)', () => {
    for (const [name, service] of APP_SERVICES) {
      expect(() => loadConfig({ ...IMAGE_ENV, ...environmentOf(service) }), name).not.toThrow();
    }
    for (const o of [...ofKind('Deployment'), ...ofKind('Job')]) {
      expect(() => loadConfig(containerEnv(o)), o.metadata.name).not.toThrow();
    }
  });

  it('keep credentials in the Secret, never in the ConfigMap', () => {
    const configMapKeys = ofKind('ConfigMap').flatMap((o) => Object.keys(o.data ?? {}));
    expect(configMapKeys.filter((name) => CREDENTIALS.includes(name))).toEqual([]);
    const secretKeys = ofKind('Secret').flatMap((o) => Object.keys({ ...o.data, ...o.stringData }));
    expect(CREDENTIALS.filter((name) => !secretKeys.includes(name))).toEqual([]);
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
  it('applies no example: kustomization.yaml lists files that exist, the example Secret not among them', () => {
    for (const file of KUSTOMIZATION.resources) {
      expect(existsSync(join(ROOT, 'deploy/kubernetes', file)), file).toBe(true);
      expect(file).not.toMatch(/example/);
    }
    // What the pods read from it is still documented by the example.
    expect(existsSync(join(ROOT, 'deploy/kubernetes/secret.example.yaml'))).toBe(true);
  });

  it('probes readiness longer than /readyz waits for the database, and one failure does not take a pod out', () => {
    for (const d of ofKind('Deployment')) {
      const probe = containers(d)[0].readinessProbe;
      // Kubernetes' default timeoutSeconds is 1.
      expect((probe.timeoutSeconds ?? 1) * 1000, d.metadata.name).toBeGreaterThan(
        READINESS_DATABASE_TIMEOUT_MS,
      );
      expect(probe.failureThreshold ?? 3, d.metadata.name).toBeGreaterThanOrEqual(2);
    }
  });

  it("names the migrate Job for the release (a Job's pod template is immutable: a new image needs a new Job)", () => {
    const tag = KUSTOMIZATION.images.find((i) => i.name === 'delivery-orders-api')!.newTag;
    expect(ofKind('Job').map((j) => j.metadata.name)).toEqual([`dlv-migrate-${tag.replace(/\./g, '-')}`]);
    expect(read('docs/operations.md')).toContain('dlv-migrate-');
  });

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
