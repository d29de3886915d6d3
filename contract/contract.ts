// The bundled contract, `generated/openapi.json`, as the service, the mocks, the tools and the
// tests read it. What a contract says is read in reader.ts, which loads no bundle, so the pipeline
// that writes the bundle can read the document it is building there.
import bundle from '../generated/openapi.json' with { type: 'json' };
import type { OpenApiDocument } from './document.ts';
import { Contract } from './reader.ts';

export * from './reader.ts';

/**
 * The contract in `generated/openapi.json`, read once per process. Imported, not read from disk,
 * so that the browser build of the client's mocks carries it as it is.
 */
let bundled: Contract | undefined;
export function loadContract(): Contract {
  bundled ??= new Contract(bundle as unknown as OpenApiDocument);
  return bundled;
}
