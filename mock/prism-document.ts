// The document the validating proxy's Prism is given: the bundled contract, adjusted where Prism
// would otherwise judge the real service differently. The contract in openapi/ is never changed.
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type Contract, type OpenApiDocument, operationObjects } from '../contract/index.ts';

/** The contract as the validating proxy's Prism is given it, paths under the base path as the service serves them. */
export function prismDocument(contract: Contract): OpenApiDocument {
  const document = structuredClone(contract.document);
  const operations = operationObjects(document).map(({ definition }) => definition);
  // Prism ignores the base path of `servers` and would serve `/pets`; the service serves `/v1/pets`,
  // and the probes, whose path items name servers of their own, beside it: `/healthz`.
  const servedPaths = new Map(contract.operations.map(({ path, servedPath }) => [path, servedPath]));
  document.paths = Object.fromEntries(
    Object.entries(document.paths).map(([key, pathItem]) => {
      delete pathItem.servers;
      return [servedPaths.get(key) ?? contract.basePath + key, pathItem];
    }),
  );
  delete document.servers;
  for (const operation of operations) {
    // For a deprecated operation Prism expects `Deprecation: true`, where the contract declares
    // its own `Deprecation: @1795219200` on every response.
    delete operation.deprecated;
    // In proxy mode Prism answers a request without credentials itself, so the server's own 401
    // would never be seen, let alone validated. The server checks credentials; Prism validates
    // its answer against the declared 401 response like any other.
    delete operation.security;
  }
  delete document.security;
  return document;
}

/** Writes `document` as `name` in `dir` atomically, so Prism never reads half a file. */
export async function writeDocument(dir: string, name: string, document: OpenApiDocument): Promise<string> {
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, name);
  const temporary = `${file}.tmp`;
  await writeFile(temporary, `${JSON.stringify(document, null, 2)}\n`, 'utf8');
  await rename(temporary, file);
  return file;
}
