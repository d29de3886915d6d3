// `npm run release -- <version>`: records the working contract as a release (see release/release-command.ts).
import { contractLocations } from './pipeline/locations.ts';
import { runRelease } from './release/release-command.ts';

const [version, ...extra] = process.argv.slice(2);
if (version === undefined || extra.length > 0) {
  console.error('usage: npm run release -- <version>   (e.g. npm run release -- 1.1.0)');
  process.exitCode = 2;
} else {
  process.exitCode = await runRelease(contractLocations(), version);
}
