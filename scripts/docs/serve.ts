// `npm run docs:serve`: serves dist/docs/ on http://DOCS_HOST:DOCS_PORT/ (127.0.0.1:8080 by
// default) for a quick look, building the docs first when they are missing or stale.
import { serve } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import { contractLocations } from '../pipeline/locations.ts';
import { ensureDocs } from './ensure.ts';
import { docsLocations } from './status.ts';

const host = process.env.DOCS_HOST || '127.0.0.1';
const port = Number(process.env.DOCS_PORT || 8080);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`docs:serve: DOCS_PORT must be a whole number from 0 to 65535; got "${process.env.DOCS_PORT}".`);
  process.exit(2);
}

const locations = contractLocations();
const ensured = await ensureDocs(locations);
if (ensured.outcome === 'failed') {
  console.error(ensured.problem);
  process.exit(1);
}

const app = new Hono();
app.use('*', serveStatic({ root: docsLocations(locations).dir }));
const server = serve({ fetch: app.fetch, hostname: host, port }, (info) => {
  const address = info.family === 'IPv6' ? `[${info.address}]` : info.address;
  console.log(`Docs at http://${address}:${info.port}/ (serving dist/docs/; Ctrl-C to stop)`);
});
server.on('error', (error: NodeJS.ErrnoException) => {
  const hint = error.code === 'EADDRINUSE' ? `; set DOCS_PORT to a free port` : '';
  console.error(`docs:serve: cannot listen on ${host}:${port}: ${error.message}${hint}`);
  process.exit(1);
});
process.once('SIGINT', () => server.close(() => process.exit(0)));
process.once('SIGTERM', () => server.close(() => process.exit(0)));
