/**
 * .dockerignore as the builder reads it (docs.docker.com/build/concepts/context/#dockerignore-files):
 * patterns relative to the context's root, `*` and `?` within one path segment, `**` across any,
 * `!` re-including; the last pattern that matches a path or one of its parent directories decides.
 */
export interface DockerIgnore {
  /** Whether the context path (relative, `/`-separated) is left out of the build context. */
  excludes(relativePath: string): boolean;
}

interface Rule {
  pattern: RegExp;
  include: boolean;
}

function toRegExp(glob: string): RegExp {
  let source = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*' && glob[i + 1] === '*') {
      source += '.*';
      i++;
      if (glob[i + 1] === '/') i++;
    } else if (c === '*') source += '[^/]*';
    else if (c === '?') source += '[^/]';
    else source += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

export function parseDockerIgnore(text: string): DockerIgnore {
  const rules: Rule[] = text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const include = line.startsWith('!');
      const glob = (include ? line.slice(1) : line).trim().replace(/^\/+|\/+$/g, '');
      return { pattern: toRegExp(glob), include };
    });
  return {
    excludes(relativePath) {
      const parts = relativePath.split('/').filter(Boolean);
      const candidates = parts.map((_, i) => parts.slice(0, i + 1).join('/'));
      let excluded = false;
      for (const rule of rules) {
        if (candidates.some((c) => rule.pattern.test(c))) excluded = !rule.include;
      }
      return excluded;
    },
  };
}
