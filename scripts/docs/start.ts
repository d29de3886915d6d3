// First step of `npm start`: makes sure the server's /docs has a page to serve, also on a fresh
// clone. A failed build never keeps the server from starting; /docs then answers 404 saying what to run.
import { contractLocations } from '../pipeline/locations.ts';
import { ensureDocs } from './ensure.ts';

const ensured = await ensureDocs(contractLocations());
if (ensured.outcome === 'failed') {
  console.warn(ensured.problem);
  console.warn('docs: starting the server without a docs page; /docs answers 404 until `npm run docs` succeeds.');
}
