/**
 * The second yardstick for the order routes: the least a delivery API must do, on the same
 * PostgreSQL — Fastify and `pg`, API keys in an in-memory map, and one narrow table of its own
 * (`bench_min_orders`, created and seeded by the bench) written and read with one statement per
 * request, its JSON built by PostgreSQL. What the project costs beyond this is its data model and
 * its code. Nothing here imports the project.
 *
 * Env: DATABASE_URL, MIN_API_KEY and MIN_BRAND_ID (the one key it accepts, and its brand).
 */
import { randomBytes } from 'node:crypto';
import Fastify from 'fastify';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 20 });
const brandByKey = new Map([[process.env.MIN_API_KEY!, process.env.MIN_BRAND_ID!]]);
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const POSTCODE = /\b(75|77|78|91|92|93|94|95)\d{3}\b/;
const PRICE_CENTS = 840;

const ORDER_JSON = `json_build_object('tracking_ref', tracking_ref, 'status', status,
  'customer_email', customer_email, 'delivery_address', delivery_address, 'delivery_postcode', delivery_postcode,
  'price_eur', price_cents::float8 / 100, 'created_at', created_at)`;

/** Prepared once per connection (the name), as the project does. */
const statements = {
  find: `SELECT ${ORDER_JSON}::text AS json FROM bench_min_orders WHERE tracking_ref = $1 AND brand_id = $2`,
  page: `SELECT id, created_at::text AS at, ${ORDER_JSON}::text AS json FROM bench_min_orders WHERE brand_id = $1
    ORDER BY created_at DESC, id DESC LIMIT $2`,
  pageAfter: `SELECT id, created_at::text AS at, ${ORDER_JSON}::text AS json FROM bench_min_orders
    WHERE brand_id = $1 AND (created_at, id) < ($3, $4) ORDER BY created_at DESC, id DESC LIMIT $2`,
  insert: `INSERT INTO bench_min_orders (tracking_ref, brand_id, status, customer_email, delivery_address,
      delivery_postcode, price_cents, created_at)
    VALUES ($1, $2, 'pending', $3, $4, $5, $6, now()) ON CONFLICT (tracking_ref) DO NOTHING
    RETURNING ${ORDER_JSON}::text AS json`,
};
const run = (name: keyof typeof statements, values: unknown[]) =>
  pool.query<{ id: string; at: string; json: string }>({ name, text: statements[name], values });

function trackingRef(): string {
  let ref = 'DLV-';
  for (const byte of randomBytes(10)) ref += ALPHABET[byte & 31];
  return ref;
}

const app = Fastify({ logger: false });

/** The brand of the request's key, or a 401 sent. */
function brandOf(request: { headers: Record<string, unknown> }, reply: { code(n: number): unknown }) {
  const brand = brandByKey.get(String(request.headers.authorization ?? '').slice(7));
  if (!brand) reply.code(401);
  return brand;
}

const json = (reply: { type(t: string): { send(s: string): unknown } }, text: string) =>
  reply.type('application/json').send(text);

app.get('/ping', async () => ({ ok: true, time: new Date().toISOString() }));

app.get<{ Params: { ref: string } }>('/orders/:ref', async (request, reply) => {
  const brand = brandOf(request, reply);
  if (!brand) return { ok: false };
  const { rows } = await run('find', [request.params.ref, brand]);
  if (!rows[0]) return reply.code(404).send({ ok: false });
  return json(reply, `{"ok":true,"order":${rows[0].json}}`);
});

app.get<{ Querystring: { limit?: string; cursor?: string } }>('/orders', async (request, reply) => {
  const brand = brandOf(request, reply);
  if (!brand) return { ok: false };
  const limit = Math.min(Math.max(Number(request.query.limit ?? 50) || 50, 1), 200);
  const [at, id] = request.query.cursor?.split('_') ?? [];
  const { rows } =
    at && id ? await run('pageAfter', [brand, limit + 1, at, id]) : await run('page', [brand, limit + 1]);
  const last = rows.length > limit ? rows[limit - 1]! : null;
  // The cursor keeps PostgreSQL's microseconds (a Date would round them away). `at`, not
  // `created_at`: ORDER BY would sort by the output column, the text.
  const cursor = last ? `"${last.at}_${last.id}"` : 'null';
  const orders = rows.slice(0, limit).map((r) => r.json);
  return json(reply, `{"ok":true,"orders":[${orders.join(',')}],"next_cursor":${cursor}}`);
});

app.post<{ Body: Record<string, unknown> }>('/orders', async (request, reply) => {
  const brand = brandOf(request, reply);
  if (!brand) return { ok: false };
  const { customer_email: email, delivery_address: address } = request.body ?? {};
  const postcode = typeof address === 'string' ? POSTCODE.exec(address)?.[0] : undefined;
  if (typeof email !== 'string' || !email.includes('@') || !postcode) {
    return reply.code(400).send({ ok: false, error: 'customer_email and a delivery_address in the area' });
  }
  for (;;) {
    const { rows } = await run('insert', [trackingRef(), brand, email, address, postcode, PRICE_CENTS]);
    if (rows[0]) return json(reply, `{"ok":true,"order":${rows[0].json}}`);
  }
});

await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
console.log(`READY ${typeof address === 'object' && address ? address.port : 0}`);
process.on('SIGINT', () => process.exit(0));
process.on('SIGTERM', () => process.exit(0));
