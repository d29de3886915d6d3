// The document Prism is given: the bundled contract, adjusted where Prism would otherwise
// answer differently from the real service. The contract in openapi/ is never changed.
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  type Contract,
  type JsonObject,
  type OpenApiDocument,
  operationObjects,
  resolveRef,
} from '../contract/index.ts';

export type PrismRole = 'mock' | 'proxy';

export function prismDocument(contract: Contract, role: PrismRole): OpenApiDocument {
  const document = structuredClone(contract.document);
  const operations = operationObjects(document).map(({ definition }) => definition);
  // Prism ignores the base path of `servers` and would serve `/pets`; the service serves `/v1/pets`.
  document.paths = Object.fromEntries(
    Object.entries(document.paths).map(([key, pathItem]) => [contract.basePath + key, pathItem]),
  );
  delete document.servers;
  for (const operation of operations) {
    // For a deprecated operation Prism sends `Deprecation: true`, which replaces the
    // contract's own `Deprecation: @1795219200` (declared on every response) and breaks it.
    delete operation.deprecated;
    // In proxy mode Prism answers a request without credentials itself, so the server's own 401
    // would never be seen, let alone validated. The server checks credentials; Prism validates
    // its answer against the declared 401 response like any other.
    if (role === 'proxy') delete operation.security;
  }
  if (role === 'proxy') delete document.security;
  else for (const response of errorResponsesOf(document, operations)) answerOnlyWithExamples(document, response);
  // Dynamic answers: no invented properties beside the declared ones (a Pet is open to them,
  // but the service never sends any, and a frontend should not come to expect them).
  document['x-json-schema-faker'] = { fillProperties: false };
  return document;
}

/**
 * A path only the mock itself asks for (its front refuses it to clients): Prism answers it with
 * the generation of the document it serves, which tells when Prism has taken a new one.
 */
export const GENERATION_PROBE_PATH = '/__animal-store-mock/generation';

export function withGenerationProbe(document: OpenApiDocument, generation: number): OpenApiDocument {
  const probe = {
    get: {
      operationId: 'mockGeneration',
      security: [],
      responses: {
        '200': {
          description: 'The generation of the served document.',
          content: { 'application/json': { example: { generation } } },
        },
      },
    },
  };
  return { ...document, paths: { ...document.paths, [GENERATION_PROBE_PATH]: probe } };
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

/**
 * In dynamic mode Prism generates bodies from the schema alone, and an Error generated from its
 * schema does not repeat its status nor carry a code that fits it (a 404 saying `gone`, 517).
 * An error response whose only possible values are its examples still lets `--dynamic` vary
 * the success data, while every error stays one the contract shows.
 */
function answerOnlyWithExamples(document: OpenApiDocument, response: JsonObject): void {
  for (const media of Object.values((response.content as Record<string, JsonObject> | undefined) ?? {})) {
    const examples = Object.values((media.examples as Record<string, unknown> | undefined) ?? {});
    if (examples.length > 0) media.schema = { enum: examples.map((example) => resolveRef(document, example).value) };
  }
}

function errorResponsesOf(document: OpenApiDocument, operations: JsonObject[]): JsonObject[] {
  const responses = operations.flatMap((operation) =>
    Object.entries((operation.responses as Record<string, unknown> | undefined) ?? {})
      .filter(([status]) => Number(status) >= 400)
      .map(([, response]) => resolveRef(document, response)),
  );
  return [...new Set(responses)];
}
