// The docs step of `npm start`, run beside the server (scripts/runtime/run.mjs starts it in the
// background): makes sure the server's /docs has a page to serve, also on a fresh clone. While it
// runs, `dist/docs/.building` holds its process id (written by run.mjs as it starts the step), so
// the server answers /docs/ with 503 and Retry-After instead of 404 until the page is there; the
// step removes it as it ends. A failed build never stops the server; /docs then answers 404
// saying what to run.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { DOCS_BUILDING_MARKER } from '../../node/http/compression.ts';
import { contractLocations } from '../pipeline/locations.ts';
import { ensureDocs } from './ensure.ts';
import { docsLocations } from './status.ts';

const locations = contractLocations();
const marker = path.join(docsLocations(locations).dir, DOCS_BUILDING_MARKER);
const unmark = () => rmSync(marker, { force: true });
// The server stops this step when it stops (an unfinished build is taken up at the next start).
process.on('SIGTERM', () => {
  unmark();
  process.exit(143);
});
try {
  const ensured = await ensureDocs(locations);
  if (ensured.outcome === 'failed') {
    console.warn(ensured.problem);
    console.warn('docs: the server runs without a docs page; /docs answers 404 until `npm run docs` succeeds.');
  }
} finally {
  unmark();
}
