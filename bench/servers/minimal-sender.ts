// The yardstick of the webhook bench: a bare loop that signs Standard Webhooks (the standardwebhooks
// package) and POSTs them with keep-alive to the same receiver, CONCURRENCY at a time, over the
// receiver's paths in turn — no database, no queue. Each body is an event as the worker sends it:
// DATA is a real event's `data` (the bench's orders are ~0.7 KB: signed, sent and parsed by the
// receiver like the worker's; a stub of a few bytes made the yardstick's work smaller than the
// work compared with it). Prints `CPU <µs of its CPU per delivery>`, then `READY <deliveries per second>`.
import http from 'node:http';
import { Webhook } from 'standardwebhooks';

const target = new URL(process.env.TARGET!);
const paths = process.env.PATHS!.split(',');
const count = Number(process.env.COUNT ?? 10_000);
const concurrency = Number(process.env.CONCURRENCY ?? 32);
const webhook = new Webhook(process.env.SECRET!);
const data: unknown = JSON.parse(process.env.DATA ?? '{"order":{}}');
const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });

function post(path: string, i: number): Promise<void> {
  const id = `msg_${i}`;
  const now = new Date();
  const body = JSON.stringify({
    type: 'order.created',
    id,
    created_at: now.toISOString(),
    data,
  });
  const headers = {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
    'webhook-signature': webhook.sign(id, now, body),
    'content-length': String(Buffer.byteLength(body)),
  };
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: target.hostname, port: target.port, path, method: 'POST', headers, agent },
      (res) => {
        res.resume();
        res.on('end', () => resolve());
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

let next = 0;
const started = performance.now();
const cpu = process.cpuUsage();
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    for (let i = next++; i < count; i = next++) await post(paths[i % paths.length]!, i);
  }),
);
const seconds = (performance.now() - started) / 1000;
const used = process.cpuUsage(cpu);
console.log(`CPU ${Math.round((used.user + used.system) / count)}`);
console.log(`READY ${Math.round(count / seconds)}`);
agent.destroy();
