import path from 'node:path';

/** The bundled contract, as `npm run fuzz` reads it by default. */
export const BUNDLE = path.resolve(import.meta.dirname, '..', '..', '..', 'generated', 'openapi.json');
