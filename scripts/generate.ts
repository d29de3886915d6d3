// `npm run generate`: lint, bundle and type the contract into generated/ (see generate-command.ts).

import { generateCommand } from './pipeline/generate-command.ts';
import { contractLocations } from './pipeline/locations.ts';

process.exitCode = await generateCommand(process.argv.slice(2), contractLocations());
