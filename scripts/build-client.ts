// `npm run build:client`: builds the package into client/dist.
import { buildClient } from './client/build.ts';

await buildClient();
