/**
 * The Dockerfile built and run as written, without a Docker engine: each stage is a directory of its
 * own standing for the image's root file system, each COPY copies into it (from the build context,
 * less what .dockerignore leaves out, or from an earlier stage), each RUN runs there with `/bin/sh -c`
 * in the stage's WORKDIR, with its ENV and USER, and the final stage's ENTRYPOINT and CMD start the
 * program the same way. The base image stands for this machine's system: its /usr (node and npm
 * included) and /etc, with the `node` user (uid 1000) the official Node.js images have.
 *
 * Each RUN is chrooted into its stage's directory inside a mount namespace of its own (util-linux
 * `unshare --mount`, then `chroot`): absolute paths in a RUN (`mkdir -p /var/lib/dlv`) land in the
 * stage, never on the machine, and the system's directories are bind-mounted read-only into that
 * namespace only. Root is needed for that; `sandboxUnavailable` says why it cannot run otherwise.
 * npm's cache is the machine's, seen through an overlay (BuildKit's cache mounts do the same): a
 * stage reads it and writes only its own layer, so `npm cache clean` in the image cleans nothing here.
 */
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, lstatSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { argv, type Instruction, type Stage } from './dockerfile.ts';
import { parseDockerIgnore } from './dockerignore.ts';

/** A stage once built: its root directory and what its instructions left for a container of it. */
export interface BuiltStage {
  name: string | null;
  root: string;
  workdir: string;
  env: Record<string, string>;
  user: string;
  entrypoint: string[];
  cmd: string[];
  healthcheck: string[] | null;
}

/** The system directories a stage sees as its base image's (read-only). */
const SYSTEM_DIRS = ['usr', 'etc'];
/** Merged-/usr names: symlinks into usr/ on Debian 12, bind-mounted when they are directories. */
const USR_LINKS = ['bin', 'sbin', 'lib', 'lib32', 'lib64'];
/** The official Node.js images' unprivileged user. */
const NODE_USER = { name: 'node', uid: 1000, gid: 1000, home: '/home/node' };
/** The PATH the official Node.js images set. */
const IMAGE_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/** Runs one command in a stage: a mount namespace of its own, then chroot (see the script). */
const SANDBOX = fileURLToPath(new URL('./image-sandbox.sh', import.meta.url));

/** Why the Dockerfile cannot be run here, or null when it can. */
export function sandboxUnavailable(): string | null {
  if (process.getuid?.() !== 0)
    return 'it needs root (a mount namespace and chroot, as a container engine would)';
  for (const tool of ['unshare', 'chroot', 'mount']) {
    if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0)
      return `\`${tool}\` is missing (util-linux, coreutils)`;
  }
  const probe = spawnSync('unshare', ['--mount', '--propagation', 'private', '--fork', 'true'], {
    encoding: 'utf8',
  });
  if (probe.status !== 0)
    return `no mount namespace may be made here (unshare --mount: ${probe.stderr.trim() || probe.status})`;
  return null;
}

/** Variables in `${X}` / `$X` form, from the stage's ARG and ENV so far (Dockerfile substitution). */
function substitute(text: string, vars: Record<string, string>): string {
  return text.replace(
    /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g,
    (_, braced, fallback, bare) => vars[braced ?? bare] ?? fallback ?? '',
  );
}

/** `A=1 B="two words"` (or the legacy `A value`) as pairs. */
function assignments(args: string): [string, string][] {
  if (!/^[A-Za-z_][A-Za-z0-9_]*=/.test(args)) {
    const [name, ...rest] = args.split(/\s+/);
    return [[name!, rest.join(' ')]];
  }
  return [...args.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=("(?:[^"\\]|\\.)*"|\S*)/g)].map(([, name, value]) => [
    name!,
    value!.startsWith('"') ? (JSON.parse(value!) as string) : value!,
  ]);
}

/** A COPY's flags (`--from=build`, `--chown=node:node`) and its sources and destination. */
function copyArgs(args: string): { flags: Record<string, string>; sources: string[]; dest: string } {
  const words = args.trim().startsWith('[') ? (JSON.parse(args) as string[]) : args.trim().split(/\s+/);
  const flags: Record<string, string> = {};
  while (words[0]?.startsWith('--')) {
    const [name, value = ''] = words.shift()!.slice(2).split('=');
    flags[name!] = value;
  }
  const dest = words.pop();
  if (!dest || words.length === 0) throw new Error(`COPY ${args}: a source and a destination are needed`);
  if (words.some((w) => /[*?[]/.test(w))) throw new Error(`COPY ${args}: wildcards are not interpreted here`);
  return { flags, sources: words, dest };
}

export interface BuildOptions {
  /** The build context: the repository, filtered by its .dockerignore. */
  context: string;
  /** An empty directory the stages are made in. */
  workDir: string;
  /** Build arguments, as `docker build --build-arg`. */
  buildArgs?: Record<string, string>;
  log?: (line: string) => void;
}

export class ImageBuilder {
  private readonly base: string;
  private readonly binds: string;
  private readonly npmCache: string | null;
  private readonly built: BuiltStage[] = [];
  private readonly ignore;

  constructor(private readonly options: BuildOptions) {
    this.ignore = parseDockerIgnore(
      existsSync(path.join(options.context, '.dockerignore'))
        ? readFileSync(path.join(options.context, '.dockerignore'), 'utf8')
        : '',
    );
    this.base = path.join(options.workDir, 'base');
    this.binds = this.nodeBinds();
    const cache = execFileSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8' }).trim();
    this.npmCache = cache && existsSync(cache) ? cache : null;
    this.makeBase();
  }

  /** The base image's /etc: this machine's, with the `node` user the Node.js images have. */
  private makeBase(): void {
    const etc = path.join(this.base, 'etc');
    cpSync('/etc', etc, { recursive: true, verbatimSymlinks: true, errorOnExist: false });
    const passwd = readFileSync(path.join(etc, 'passwd'), 'utf8');
    if (!/^node:/m.test(passwd)) {
      writeFileSync(
        path.join(etc, 'passwd'),
        `${passwd.trimEnd()}\nnode:x:${NODE_USER.uid}:${NODE_USER.gid}::${NODE_USER.home}:/bin/sh\n`,
      );
      const group = readFileSync(path.join(etc, 'group'), 'utf8');
      writeFileSync(path.join(etc, 'group'), `${group.trimEnd()}\nnode:x:${NODE_USER.gid}:\n`);
    }
  }

  /** node and npm when this machine has them outside /usr (a version manager's directory). */
  private nodeBinds(): string {
    const prefix = path.dirname(path.dirname(process.execPath));
    return prefix.startsWith('/usr/') || prefix === '/usr' ? '' : `${prefix}:${prefix}`;
  }

  /** An empty root standing for the base image: its directories, /usr's links, the user's home. */
  private freshRoot(root: string): void {
    for (const dir of [...SYSTEM_DIRS, 'dev', 'proc', 'root', 'root/.npm', 'var', 'run']) {
      mkdirSync(path.join(root, dir), { recursive: true });
    }
    mkdirSync(path.join(root, 'tmp'), { mode: 0o1777 });
    execFileSync('chmod', ['1777', path.join(root, 'tmp')]);
    mkdirSync(path.join(root, NODE_USER.home), { recursive: true });
    execFileSync('chown', [`${NODE_USER.uid}:${NODE_USER.gid}`, path.join(root, NODE_USER.home)]);
    for (const name of USR_LINKS) {
      const host = `/${name}`;
      if (!existsSync(host)) continue;
      const stat = lstatSync(host);
      if (stat.isSymbolicLink())
        symlinkSync(execFileSync('readlink', [host]).toString().trim(), path.join(root, name));
      else mkdirSync(path.join(root, name));
    }
    for (const [host] of this.binds
      .split(';')
      .filter(Boolean)
      .map((b) => b.split(':'))) {
      mkdirSync(path.join(root, host!), { recursive: true });
    }
  }

  /** /bin and the like when they are directories here (no merged /usr): bound like /usr. */
  private usrBinds(): string {
    return USR_LINKS.filter((name) => existsSync(`/${name}`) && !lstatSync(`/${name}`).isSymbolicLink())
      .map((name) => `/${name}:/${name}`)
      .join(';');
  }

  /** Builds every stage in order, as `docker build` would for the last one. */
  async build(stages: Stage[]): Promise<BuiltStage[]> {
    for (const stage of stages) await this.buildStage(stage);
    return this.built;
  }

  private stageNamed(name: string): BuiltStage | undefined {
    return this.built.find((s) => s.name === name) ?? this.built[Number(name)];
  }

  private async buildStage(stage: Stage): Promise<void> {
    const root = path.join(this.options.workDir, `stage-${stage.index}-${stage.name ?? 'unnamed'}`, 'root');
    const from = this.stageNamed(stage.base);
    if (from) cpSync(from.root, root, { recursive: true, verbatimSymlinks: true });
    else this.freshRoot(root);
    const built: BuiltStage = from
      ? { ...from, name: stage.name, root, env: { ...from.env } }
      : {
          name: stage.name,
          root,
          workdir: '/',
          env: { PATH: IMAGE_PATH },
          user: 'root',
          entrypoint: [],
          cmd: [],
          healthcheck: null,
        };
    const args: Record<string, string> = {};
    for (const instruction of stage.instructions.slice(1)) {
      this.options.log?.(`[${stage.name ?? stage.index}] ${instruction.keyword} ${instruction.args}`);
      await this.apply(built, instruction, args);
    }
    this.built.push(built);
  }

  private async apply(
    stage: BuiltStage,
    instruction: Instruction,
    args: Record<string, string>,
  ): Promise<void> {
    const vars = { ...args, ...stage.env };
    switch (instruction.keyword) {
      case 'WORKDIR': {
        stage.workdir = path.posix.resolve(stage.workdir, substitute(instruction.args, vars));
        mkdirSync(path.join(stage.root, stage.workdir), { recursive: true });
        return;
      }
      case 'ENV':
        for (const [name, value] of assignments(instruction.args)) stage.env[name] = substitute(value, vars);
        return;
      case 'ARG':
        for (const [name, value] of assignments(instruction.args))
          args[name] = this.options.buildArgs?.[name] ?? value;
        return;
      case 'USER':
        stage.user = substitute(instruction.args, vars).trim();
        return;
      case 'COPY':
        this.copy(stage, substitute(instruction.args, vars));
        return;
      case 'RUN': {
        const result = await this.exec(stage, ['/bin/sh', '-c', instruction.args], { ...args, ...stage.env });
        if (result.status !== 0) {
          throw new Error(
            `RUN ${instruction.args} failed (exit ${result.status ?? result.signal}):\n${result.output.slice(-4000)}`,
          );
        }
        return;
      }
      case 'ENTRYPOINT':
        stage.entrypoint = argv(instruction);
        return;
      case 'CMD':
        stage.cmd = argv(instruction);
        return;
      case 'HEALTHCHECK': {
        const cmd = /\bCMD\s+(.*)$/.exec(instruction.args)?.[1];
        stage.healthcheck = cmd ? argv({ ...instruction, args: cmd }) : null;
        return;
      }
      case 'EXPOSE':
      case 'LABEL':
        return;
      default:
        throw new Error(`${instruction.keyword} is not interpreted by test/support/image-build.ts`);
    }
  }

  private copy(stage: BuiltStage, args: string): void {
    const { flags, sources, dest } = copyArgs(args);
    const fromStage = flags.from === undefined ? null : this.stageNamed(flags.from);
    if (flags.from !== undefined && !fromStage) throw new Error(`COPY --from=${flags.from}: no such stage`);
    const target = path.posix.resolve(stage.workdir, dest);
    const intoDirectory = dest.endsWith('/') || sources.length > 1;
    for (const source of sources) {
      const from = fromStage
        ? path.join(fromStage.root, path.posix.resolve('/', source))
        : path.join(this.options.context, source);
      if (!fromStage && this.ignore.excludes(path.posix.normalize(source)))
        throw new Error(`COPY ${source}: left out of the build context by .dockerignore`);
      if (!existsSync(from)) throw new Error(`COPY ${source}: not found`);
      const isDir = lstatSync(from).isDirectory();
      const to = path.join(
        stage.root,
        intoDirectory && !isDir ? path.posix.join(target, path.basename(source)) : target,
      );
      cpSync(from, to, {
        recursive: true,
        verbatimSymlinks: true,
        filter: (file) => {
          if (fromStage) return true;
          const relative = path.relative(this.options.context, file).split(path.sep).join('/');
          return relative === '' || !this.ignore.excludes(relative);
        },
      });
      const owner = flags.chown ? this.ids(flags.chown) : '0:0';
      execFileSync('chown', ['-R', owner, to]);
    }
  }

  /** uid:gid of a USER or --chown value (`node`, `node:node`, `1000:1000`), from the base's /etc. */
  private ids(spec: string): string {
    const [user, group] = spec.split(':');
    const lookup = (file: string, name: string) => {
      if (/^\d+$/.test(name)) return name;
      const line = readFileSync(path.join(this.base, 'etc', file), 'utf8')
        .split('\n')
        .find((l) => l.startsWith(`${name}:`));
      if (!line) throw new Error(`no ${file === 'passwd' ? 'user' : 'group'} ${name} in the base image`);
      return line.split(':')[2]!;
    };
    const uid = lookup('passwd', user!);
    const gid = group
      ? lookup('group', group)
      : (readFileSync(path.join(this.base, 'etc', 'passwd'), 'utf8')
          .split('\n')
          .find((l) => l.split(':')[2] === uid)
          ?.split(':')[3] ?? uid);
    return `${uid}:${gid}`;
  }

  /** The arguments of `unshare … sh -c SANDBOX` for a command in `stage`, as its user. */
  private sandboxArgs(stage: BuiltStage, command: string[]): string[] {
    const asRoot = this.ids(stage.user) === '0:0';
    let cache = '';
    if (asRoot && this.npmCache) {
      const layer = path.join(path.dirname(stage.root), 'npm-cache');
      mkdirSync(path.join(layer, 'upper'), { recursive: true });
      mkdirSync(path.join(layer, 'work'), { recursive: true });
      cache = `${this.npmCache}:${path.join(layer, 'upper')}:${path.join(layer, 'work')}`;
    }
    const binds = [this.binds, this.usrBinds()].filter(Boolean).join(';');
    return [
      '--mount',
      '--propagation',
      'private',
      '--fork',
      '/bin/sh',
      SANDBOX,
      stage.root,
      this.base,
      binds,
      cache,
      stage.workdir,
      this.ids(stage.user),
      ...command,
    ];
  }

  /** The environment a container process gets: the image's, HOME for its user, and `extra`. */
  private environment(stage: BuiltStage, env: Record<string, string>): Record<string, string> {
    const uid = this.ids(stage.user).split(':')[0];
    const home =
      readFileSync(path.join(this.base, 'etc', 'passwd'), 'utf8')
        .split('\n')
        .find((l) => l.split(':')[2] === uid)
        ?.split(':')[5] || '/';
    return { HOME: home, HOSTNAME: 'dlv-image-test', ...env };
  }

  /** Runs a command to its end in `stage` (a RUN, or `docker run --rm image …`): its exit and output. */
  exec(
    stage: BuiltStage,
    command: string[],
    env: Record<string, string> = stage.env,
  ): Promise<{ status: number | null; signal: NodeJS.Signals | null; output: string }> {
    return new Promise((resolve, reject) => {
      const child = spawn('unshare', this.sandboxArgs(stage, command), {
        env: this.environment(stage, env),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (d) => {
        output += d;
      });
      child.stderr.on('data', (d) => {
        output += d;
      });
      child.once('error', reject);
      child.once('close', (status, signal) => resolve({ status, signal, output }));
    });
  }

  /**
   * Starts a container of `stage` (`docker run -e … image [command]`): its ENTRYPOINT with `command`
   * or its CMD, its ENV overlaid with `env`. Its own process group, so `stop` reaches the program.
   */
  run(stage: BuiltStage, env: Record<string, string>, command: string[] = stage.cmd): ChildProcess {
    const child = spawn('unshare', this.sandboxArgs(stage, [...stage.entrypoint, ...command]), {
      env: this.environment(stage, { ...stage.env, ...env }),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    return child;
  }
}
