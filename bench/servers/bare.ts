// The baseline: Hono on @hono/node-server answering with the full stack's bytes (status, body and
// headers) from constants, so the ratio measures what the service's own work costs. A POST reads
// its body first, as the full stack must.
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

/** The answers to serve, as bench/api.ts captures them from the full stack. */
export interface BareAnswer {
  method: 'GET' | 'POST';
  /** Matched without its query. */
  path: string;
  status: 200 | 201;
  body: string;
  headers: Record<string, string>;
}

const answers: BareAnswer[] = JSON.parse(process.env.BENCH_ANSWERS ?? '[]');
const app = new Hono();
for (const { method, path, status, body, headers } of answers) {
  const route = path.split('?')[0] ?? path;
  if (method === 'GET') app.get(route, (c) => c.body(body, status, headers));
  else
    app.post(route, async (c) => {
      await c.req.text();
      return c.body(body, status, headers);
    });
}

serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info) => {
  process.stdout.write(`listening on http://127.0.0.1:${info.port}/v1\n`);
});
