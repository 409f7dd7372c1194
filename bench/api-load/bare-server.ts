// The yardstick of bench/api-load: a bare Fastify JSON route, no plugins, no logging, in its own process.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/bare', async () => ({ data: { message: 'hello' } }));
await app.listen({ host: '127.0.0.1', port: 0 });
const a = app.server.address();
console.log(`bare listening on ${typeof a === 'object' && a ? a.port : 0}`);
