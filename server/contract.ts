import { readFileSync } from 'node:fs';
import type { operations } from '../generated/openapi.ts';

export type OperationId = keyof operations;

/** The parts of an OpenAPI 3.1 document the server reads; the bundle is the source of truth. */
export interface OpenApiDocument {
  info: { title: string; version: string };
  servers: { url: string; variables?: Record<string, { default: string }> }[];
  paths: Record<string, Record<string, unknown>>;
  components: Record<string, Record<string, unknown>>;
}

export type JsonSchema = Record<string, unknown>;

export interface ParameterSpec {
  name: string;
  in: 'query' | 'path' | 'header' | 'cookie';
  required: boolean;
  /** The parameter's schema with `$ref`s left in place (resolved by Ajv against the document). */
  schema: JsonSchema;
  /** The parameter's own schema with its top-level `$ref` resolved, to read `type`. */
  resolvedSchema: JsonSchema;
}

export interface DeprecationSpec {
  /** Header values every response of the operation carries, taken from the contract's `const`s. */
  headers: Record<string, string>;
  /** The instant (ms) from which the operation answers 410. */
  sunsetAt: number;
  sunsetDate: string;
}

export interface OperationSpec {
  operationId: OperationId;
  method: string;
  /** The contract's path, e.g. `/pets/{petId}`. */
  path: string;
  /** The path the server routes, with the base path and Hono's parameter syntax: `/v1/pets/:petId`. */
  routePath: string;
  parameters: ParameterSpec[];
  /** `$ref` of the JSON request body schema, when the operation takes one. */
  bodySchema?: JsonSchema;
  deprecation?: DeprecationSpec;
}

export interface Contract {
  document: OpenApiDocument;
  /** The base path every server URL of the contract shares, e.g. `/v1`. */
  basePath: string;
  operations: OperationSpec[];
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

export function loadContract(file = new URL('../generated/openapi.json', import.meta.url)): Contract {
  return readContract(JSON.parse(readFileSync(file, 'utf8')) as OpenApiDocument);
}

export function readContract(document: OpenApiDocument): Contract {
  const basePath = sharedBasePath(document);
  const operations: OperationSpec[] = [];
  for (const [path, pathItem] of Object.entries(document.paths)) {
    const pathParameters = (pathItem.parameters as unknown[] | undefined) ?? [];
    for (const method of HTTP_METHODS) {
      const operation = pathItem[method] as Record<string, unknown> | undefined;
      if (!operation) continue;
      const parameters = [...pathParameters, ...((operation.parameters as unknown[] | undefined) ?? [])].map(
        (parameter) => readParameter(document, parameter),
      );
      operations.push({
        operationId: operation.operationId as OperationId,
        method: method.toUpperCase(),
        path,
        routePath: basePath + path.replace(/\{([^}]+)\}/g, ':$1'),
        parameters,
        bodySchema: jsonBodySchema(document, operation.requestBody),
        deprecation: operation.deprecated === true ? readDeprecation(document, operation) : undefined,
      });
    }
  }
  return { document, basePath, operations };
}

export function resolveRef<T = JsonSchema>(document: OpenApiDocument, node: unknown): T {
  let current = node as Record<string, unknown>;
  while (typeof current.$ref === 'string') {
    const ref = current.$ref;
    if (!ref.startsWith('#/')) throw new Error(`Only local references are supported in the bundle: ${ref}`);
    current = ref
      .slice(2)
      .split('/')
      .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce<Record<string, unknown>>((value, key) => value[key] as Record<string, unknown>, document as never);
    if (current === undefined) throw new Error(`Unresolvable reference in the bundle: ${ref}`);
  }
  return current as T;
}

function sharedBasePath(document: OpenApiDocument): string {
  const basePaths = new Set(
    document.servers.map((server) => {
      const url = server.url.replace(/\{([^}]+)\}/g, (_, name: string) => server.variables?.[name]?.default ?? '');
      return new URL(url).pathname.replace(/\/$/, '');
    }),
  );
  if (basePaths.size !== 1) throw new Error(`The contract's servers disagree on the base path: ${[...basePaths].join(', ')}`);
  return [...basePaths][0]!;
}

function readParameter(document: OpenApiDocument, node: unknown): ParameterSpec {
  const parameter = resolveRef<Record<string, unknown>>(document, node);
  const schema = parameter.schema as JsonSchema;
  return {
    name: parameter.name as string,
    in: parameter.in as ParameterSpec['in'],
    required: parameter.required === true,
    schema,
    resolvedSchema: resolveRef(document, schema),
  };
}

function jsonBodySchema(document: OpenApiDocument, node: unknown): JsonSchema | undefined {
  if (!node) return undefined;
  const requestBody = resolveRef<{ content?: Record<string, { schema?: JsonSchema }> }>(document, node);
  return requestBody.content?.['application/json']?.schema;
}

/**
 * A header declared with a `const` value on every response of a deprecated operation
 * (`Deprecation`, `Sunset`, the successor `Link`) is sent on every response of it, so the
 * contract is the one place those values are written.
 */
function readDeprecation(document: OpenApiDocument, operation: Record<string, unknown>): DeprecationSpec {
  const sunsetDate = operation['x-sunset'];
  if (typeof sunsetDate !== 'string') throw new Error(`Deprecated operation ${String(operation.operationId)} lacks x-sunset`);
  const perResponse = Object.values(operation.responses as Record<string, unknown>).map((response) => {
    const declared = resolveRef<{ headers?: Record<string, unknown> }>(document, response).headers ?? {};
    const constants = new Map<string, string>();
    for (const [name, header] of Object.entries(declared)) {
      const schema = resolveRef<JsonSchema>(document, resolveRef<{ schema: JsonSchema }>(document, header).schema);
      if (typeof schema.const === 'string') constants.set(name, schema.const);
    }
    return constants;
  });
  const headers: Record<string, string> = {};
  for (const [name, value] of perResponse[0] ?? []) {
    if (perResponse.every((constants) => constants.get(name) === value)) headers[name] = value;
  }
  return { headers, sunsetAt: Date.parse(`${sunsetDate}T00:00:00Z`), sunsetDate };
}
