// The bundled contract, `generated/openapi.json`, as the service, the mocks, the tools and the
// tests read it. Apart from contract.ts, which reads what any document says and loads no bundle,
// so that the pipeline writing the bundle can read the document it is building.
import bundle from '../generated/openapi.json' with { type: 'json' };
import { Contract } from './contract.ts';
import type { OpenApiDocument } from './document.ts';

/**
 * The contract in `generated/openapi.json`, read once per process. Imported, not read from disk,
 * so that the browser build of the client's mocks carries it as it is.
 */
let bundled: Contract | undefined;
export function loadContract(): Contract {
  bundled ??= new Contract(bundle as unknown as OpenApiDocument);
  return bundled;
}
