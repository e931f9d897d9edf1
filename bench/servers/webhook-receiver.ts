// The loopback receiver of the webhook bench, in a process of its own as a brand's server would be:
// answers 204 at once, or after SLOW_MS under /slow/; counts per path and measures each event's
// creation → arrival lag from its body's created_at. GET /stats and POST /reset for the bench.
import http from 'node:http';

const SLOW_MS = Number(process.env.SLOW_MS ?? 500);
let counts = new Map<string, { count: number; first: number; last: number }>();
let lags: number[] = [];

const server = http.createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/stats') {
    const sorted = Float64Array.from(lags).sort();
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        paths: Object.fromEntries(counts),
        lag: { n: sorted.length, p50: at(0.5), p99: at(0.99) },
      }),
    );
    return;
  }
  if (req.method === 'POST' && req.url === '/reset') {
    counts = new Map();
    lags = [];
    res.writeHead(204).end();
    return;
  }
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const now = Date.now();
    const path = req.url ?? '/';
    const entry = counts.get(path);
    if (entry) {
      entry.count += 1;
      entry.last = now;
    } else counts.set(path, { count: 1, first: now, last: now });
    try {
      const createdAt = Date.parse(
        (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { created_at: string }).created_at,
      );
      // The slow endpoint's backlog is the point of the isolation run, not a lag to report.
      if (!Number.isNaN(createdAt) && !path.startsWith('/slow/')) lags.push(now - createdAt);
    } catch {
      // Not an event: counted only.
    }
    if (path.startsWith('/slow/')) setTimeout(() => res.writeHead(204).end(), SLOW_MS);
    else res.writeHead(204).end();
  });
});
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  console.log(`READY ${typeof address === 'object' && address ? address.port : 0}`);
});
process.on('SIGTERM', () => process.exit(0));
