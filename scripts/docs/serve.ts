// `npm run docs:serve`: serves dist/docs/ on http://DOCS_HOST:DOCS_PORT/ (127.0.0.1:8080 by
// default) for a quick look, building the docs first when they are missing or stale.
import { serve } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import { exitWith } from '../../node/command-line.ts';
import { variables } from '../../node/variables.ts';
import { contractLocations } from '../pipeline/locations.ts';
import { ensureDocs } from './ensure.ts';
import { docsLocations } from './status.ts';

/** Its variables, read and checked once: where to listen. */
function readServeConfig() {
  try {
    const read = variables(process.env);
    return { host: read.text('DOCS_HOST', '127.0.0.1'), port: read.integer('DOCS_PORT', 8080, 0, 65535) };
  } catch (error) {
    return exitWith(error, 'docs:serve');
  }
}

const { host, port } = readServeConfig();

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
