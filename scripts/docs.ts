// `npm run docs`: dist/docs/index.html, one self-contained page rendered by Redocly from the
// bundled contract in generated/, next to copies of that bundle (the page's download links).
import { buildDocs } from './docs/build.ts';
import { contractLocations } from './pipeline/locations.ts';

const result = await buildDocs(contractLocations());
if (!result.ok) console.error(result.problem);
process.exitCode = result.ok ? 0 : 1;
