// `npm run build:client`: builds the package into client/dist.
import { buildClient } from './build-client.ts';

await buildClient();
