// The baseline: Hono on @hono/node-server answering with the full stack's bytes (body and
// headers) from constants, so the ratio measures what the service's own work costs.
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

const body = process.env.BENCH_BODY ?? '[]';
const headers: Record<string, string> = JSON.parse(process.env.BENCH_HEADERS ?? '{"content-type":"application/json"}');
const app = new Hono();
app.get('/v1/pets', (c) => c.body(body, 200, headers));

serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info) => {
  process.stdout.write(`listening on http://127.0.0.1:${info.port}/v1\n`);
});
