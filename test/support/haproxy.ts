/**
 * haproxy as the topology test runs it: the committed configuration rendered for loopback, and the
 * backend servers' states and counters read from its stats page.
 */

/**
 * The committed haproxy configuration with each `server <name> <host:port>` pointed at the loopback
 * port its instance listens on, the frontend bound to `bindPort` on loopback, and a stats listener
 * (the test's only addition) to read the servers' states and the proxy's retry counts.
 */
export function renderHaproxyConfig(
  committed: string,
  servers: Record<string, number>,
  bindPort: number,
  statsPort: number,
): string {
  const seen = new Set<string>();
  const rendered = committed
    .replace(/^(\s*bind\s+)\S*:\d+/m, `$1127.0.0.1:${bindPort}`)
    .replace(/^(\s*server\s+)(\S+)\s+\S+/gm, (_line, lead: string, name: string) => {
      const port = servers[name];
      if (port === undefined)
        throw new Error(`haproxy.cfg names a server compose.yaml does not start: ${name}`);
      seen.add(name);
      return `${lead}${name} 127.0.0.1:${port}`;
    })
    // On loopback there is no name to resolve; Docker's DNS (127.0.0.11) does not exist here.
    .replace(/^resolvers[\s\S]*?(?=^\S)/m, '')
    .replace(/[ \t]+resolvers[ \t]+\S+/g, '');
  const missing = Object.keys(servers).filter((name) => !seen.has(name));
  if (missing.length) throw new Error(`haproxy.cfg has no server for ${missing.join(', ')}`);
  return `${rendered}\nlisten stats\n  bind 127.0.0.1:${statsPort}\n  stats enable\n  stats uri /stats\n`;
}

export interface BackendServer {
  status: string;
  /** Requests sent to it, in all. */
  sessions: number;
  /** Connection attempts retried (wretr) and requests redispatched to another server (wredis). */
  retries: number;
  redispatches: number;
}

/** The API backend's servers, from the stats listener `renderHaproxyConfig` adds. */
export async function readBackendServers(statsPort: number): Promise<Record<string, BackendServer>> {
  const csv = await fetch(`http://127.0.0.1:${statsPort}/stats;csv`, {
    signal: AbortSignal.timeout(2000),
  }).then((r) => r.text());
  const [header, ...rows] = csv.trim().split('\n');
  const columns = header!.replace(/^# /, '').split(',');
  const at = (row: string[], column: string) => row[columns.indexOf(column)] ?? '';
  return Object.fromEntries(
    rows
      .map((line) => line.split(','))
      .filter((row) => at(row, 'pxname') === 'api' && !['FRONTEND', 'BACKEND'].includes(at(row, 'svname')))
      .map((row) => [
        at(row, 'svname'),
        {
          status: at(row, 'status'),
          sessions: Number(at(row, 'stot')),
          retries: Number(at(row, 'wretr')),
          redispatches: Number(at(row, 'wredis')),
        },
      ]),
  );
}
