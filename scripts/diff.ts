// `npm run diff`: is the working contract in openapi/ safe for the clients of the latest release?
//   --base <version or file>  compare with that release (`1.0.0`) or bundled contract instead
import { parseArgs } from 'node:util';
import { contractLocations } from './pipeline/locations.ts';
import { runDiff } from './release/diff-command.ts';

const { values } = parseArgs({ options: { base: { type: 'string' } } });
process.exitCode = await runDiff(contractLocations(), values.base === undefined ? {} : { base: values.base });
