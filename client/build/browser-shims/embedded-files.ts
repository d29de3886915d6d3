// `node:fs` in the browser build. The one file the shared modules read is the contract bundle
// (`generated/openapi.json`, read once by loadContract); the build embeds it here.
import bundle from '../../../generated/openapi.json' with { type: 'json' };

const BUNDLE_NAME = '/generated/openapi.json';

export function readFileSync(file: URL | string): string {
  if (String(file).endsWith(BUNDLE_NAME)) return JSON.stringify(bundle);
  throw new Error(`The browser build carries ${BUNDLE_NAME} only, not ${String(file)}.`);
}
