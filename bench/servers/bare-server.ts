// The yardstick: Fastify answering a constant JSON body, with nothing else in the way.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
const body = { ok: true, available: true, rates: [] };
app.post('/bare', async () => body);
app.get('/bare', async () => body);
await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
const address = app.server.address();
console.log(`READY ${typeof address === 'object' && address ? address.port : 0}`);
process.on('SIGTERM', () => process.exit(0));
