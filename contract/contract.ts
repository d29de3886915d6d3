// What a contract says about each operation, read once from its document: where it is served,
// its parameters, body and responses, the methods each path allows, and its deprecation.
import type { operations, webhooks } from '../generated/openapi.ts';
import { type Deprecation, readDeprecation } from './deprecation.ts';
import {
  type JsonObject,
  type JsonSchema,
  type OpenApiDocument,
  type OperationObject,
  operationObjects,
  resolveRef,
  type ServerObject,
} from './document.ts';
import { isJsonMediaType } from './media-types.ts';
import { maxBodyBytes } from './rate-limit-rules.ts';

/**
 * The operations the service serves: those of the contract's paths. Each webhook of the contract
 * (named like its operationId) is a request the service sends, not one it answers.
 */
export type OperationId = Exclude<keyof operations, keyof webhooks>;

export interface ContractParameter {
  name: string;
  in: 'query' | 'path' | 'header' | 'cookie';
  required: boolean;
  /** What the parameter means, as the contract says it. */
  description?: string;
  /** The parameter's schema as it stands in the document (`$ref`s left in place). */
  schema: JsonSchema;
  /** The same schema with its own `$ref` followed, to read `type`. */
  resolvedSchema: JsonSchema;
}

interface ContractHeader {
  required: boolean;
  /** `$ref` followed. */
  schema: JsonSchema;
  /** The header's example value: its `example`, first named example, or its schema's `const` or example. */
  example: unknown;
}

interface ContractResponse {
  /** The response object, `$ref` followed. */
  definition: JsonObject;
  /** Declared headers by name, as the contract spells it. */
  headers: Record<string, ContractHeader>;
  /** The named examples of the JSON body, by name, `$ref`s followed, in the document's order. */
  examples: Record<string, unknown>;
}

export interface ContractOperation {
  operationId: OperationId;
  /** Upper case, as on the wire. */
  method: string;
  /** The methods that reach the operation: its own, and HEAD too where it is GET. */
  methods: string[];
  /** The contract's path, e.g. `/pets/{petId}`. */
  path: string;
  /** The path the service serves, under the base path: `/v1/pets/{petId}`. */
  servedPath: string;
  /** The same in the router's syntax: `/v1/pets/:petId`. */
  routePath: string;
  /** Path-item parameters first, then the operation's own. */
  parameters: ContractParameter[];
  /** The JSON request body's schema as it stands in the document, when the operation takes one. */
  bodySchema?: JsonSchema;
  /** The media type of that body as declared: `application/json`, or another JSON type (`application/merge-patch+json`). */
  bodyMediaType?: string;
  /**
   * Every JSON media type the body may be sent as, with its schema, the preferred one (above)
   * first: a request is read and validated as the type it declares.
   */
  bodies?: Array<{ mediaType: string; schema: JsonSchema }>;
  /** The largest body the operation reads (`x-max-body-bytes`), when it takes one. */
  maxBodyBytes?: number;
  /** Declared responses by status code. */
  responses: Record<string, ContractResponse>;
  deprecation?: Deprecation;
  /** Marked `security: []`: served without a key and outside the rate limits (the health probes). */
  isPublic: boolean;
  /** The operation object as the document writes it. */
  definition: JsonObject;
}

export interface ContractPath {
  /** The path the service serves, `/v1/pets/{petId}`. */
  servedPath: string;
  operations: ContractOperation[];
  /** The methods the path supports, sorted, as an `Allow` header lists them. */
  allow: string[];
  /** The operation `method` reaches on this path (a HEAD reaches the GET one). */
  operationFor(method: string): ContractOperation | undefined;
}

export interface PathMatch {
  path: ContractPath;
  /** The path's parameters, percent-decoded, by name. */
  params: Record<string, string>;
}

export class Contract {
  readonly document: OpenApiDocument;
  /** The base path every server URL of the contract shares, e.g. `/v1`. */
  readonly basePath: string;
  readonly operations: ContractOperation[];
  readonly paths: ContractPath[];
  readonly #patterns: Array<{ pattern: RegExp; names: string[]; path: ContractPath }>;

  constructor(document: OpenApiDocument) {
    this.document = document;
    this.basePath = basePathOf(document.servers);
    this.operations = operationObjects(document).map((found) =>
      readOperation(document, found.pathServers ? basePathOf(found.pathServers) : this.basePath, found),
    );
    for (const operation of this.operations) {
      // This contract's lint asks a sunset of every deprecated operation; another document may
      // deprecate one without: it has then no sunset or headers to serve.
      if (operation.definition.deprecated === true && 'x-sunset' in operation.definition) {
        operation.deprecation = readDeprecation(operation, (operationId) => this.operation(operationId).servedPath);
      }
    }
    this.paths = [...new Set(this.operations.map((operation) => operation.servedPath))].map((servedPath) =>
      contractPath(
        servedPath,
        this.operations.filter((operation) => operation.servedPath === servedPath),
      ),
    );
    // Literal segments win over templated ones, as OpenAPI asks: `/pets/mine` before `/pets/{petId}`.
    this.#patterns = this.paths
      .map((path) => ({ path, ...pathPattern(path.servedPath) }))
      .sort((a, b) => a.names.length - b.names.length);
  }

  /**
   * The headers the contract lets a request carry (its header parameters, the header its security
   * schemes read, `Content-Type` where an operation takes a body) and those its answers declare,
   * each once, as the contract spells them: what a browser must be allowed to send and to read.
   */
  get headerNames(): { request: string[]; response: string[] } {
    const request = new Set<string>();
    const response = new Set<string>();
    const schemes = ((this.document.components as JsonObject | undefined)?.securitySchemes ?? {}) as Record<
      string,
      JsonObject
    >;
    for (const scheme of Object.values(schemes)) {
      if (scheme.type === 'http') request.add('Authorization');
      if (scheme.type === 'apiKey' && scheme.in === 'header' && typeof scheme.name === 'string')
        request.add(scheme.name);
    }
    for (const operation of this.operations) {
      if (operation.bodySchema) request.add('Content-Type');
      for (const parameter of operation.parameters) if (parameter.in === 'header') request.add(parameter.name);
      for (const declared of Object.values(operation.responses))
        for (const name of Object.keys(declared.headers)) response.add(name);
    }
    return { request: [...request], response: [...response] };
  }

  /** The largest body any operation reads (`x-max-body-bytes`): what the HTTP layer holds at most before it refuses one. */
  get largestBodyBytes(): number {
    return Math.max(0, ...this.operations.map((operation) => operation.maxBodyBytes ?? 0));
  }

  operation(operationId: string): ContractOperation {
    const found = this.operations.find((candidate) => candidate.operationId === operationId);
    if (!found) throw new Error(`The contract has no operation ${operationId}`);
    return found;
  }

  /** The contract path a request path (without query) reaches, if any. */
  match(requestPath: string): PathMatch | undefined {
    for (const { pattern, names, path } of this.#patterns) {
      const found = pattern.exec(requestPath);
      if (found)
        return {
          path,
          params: Object.fromEntries(
            names.map((name, index) => {
              const segment = found[index + 1];
              if (segment === undefined) throw new Error(`The pattern of ${path.servedPath} captures no {${name}}`);
              return [name, decodeSegment(segment)];
            }),
          ),
        };
    }
    return undefined;
  }
}

/**
 * The path every URL of `servers` shares (`/v1`), with their variables at their defaults;
 * empty when there is no server.
 */
export function basePathOf(servers: ServerObject[] = []): string {
  const basePaths = new Set(
    servers.map((server) => {
      const url = server.url.replace(/\{([^}]+)\}/g, (_, name: string) => server.variables?.[name]?.default ?? '');
      return new URL(url, 'http://localhost').pathname.replace(/\/$/, '');
    }),
  );
  if (basePaths.size > 1)
    throw new Error(`The contract's servers disagree on the base path: ${[...basePaths].join(', ')}`);
  return [...basePaths][0] ?? '';
}

function readOperation(
  document: OpenApiDocument,
  basePath: string,
  { path, method, pathParameters, definition }: OperationObject,
): ContractOperation {
  const parameters = [...pathParameters, ...((definition.parameters as unknown[] | undefined) ?? [])].map((node) =>
    readParameter(document, node),
  );
  const responses: Record<string, ContractResponse> = {};
  for (const [status, node] of Object.entries((definition.responses as JsonObject | undefined) ?? {})) {
    responses[status] = readResponse(document, node);
  }
  const servedPath = basePath + path;
  // `security: []` on the operation: no key is asked, so no rate limit counts it either.
  const isPublic = Array.isArray(definition.security) && definition.security.length === 0;
  const bodies = jsonBodies(document, definition.requestBody);
  const [body] = bodies;
  return {
    // Every operation of this contract has an operationId (the lint asks for one); another
    // document's operation without one is named by its method and path.
    operationId: (definition.operationId ?? `${method} ${path}`) as OperationId,
    method,
    methods: method === 'GET' ? ['GET', 'HEAD'] : [method],
    path,
    servedPath,
    routePath: servedPath.replace(/\{([^}]+)\}/g, ':$1'),
    parameters,
    ...(body && { bodySchema: body.schema, bodyMediaType: body.mediaType, bodies }),
    maxBodyBytes: maxBodyBytes(definition),
    responses,
    isPublic,
    definition,
  };
}

function readParameter(document: OpenApiDocument, node: unknown): ContractParameter {
  const parameter = resolveRef(document, node);
  const schema = parameter.schema as JsonSchema;
  return {
    name: parameter.name as string,
    in: parameter.in as ContractParameter['in'],
    required: parameter.required === true,
    ...(typeof parameter.description === 'string' && { description: parameter.description }),
    schema,
    resolvedSchema: resolveRef(document, schema),
  };
}

function readResponse(document: OpenApiDocument, node: unknown): ContractResponse {
  const definition = resolveRef(document, node);
  const headers: Record<string, ContractHeader> = {};
  for (const [name, headerNode] of Object.entries((definition.headers as JsonObject | undefined) ?? {})) {
    const header = resolveRef(document, headerNode);
    const schema = resolveRef(document, header.schema ?? {});
    const examples = header.examples as Record<string, unknown> | undefined;
    const namedExample = examples ? Object.values(examples)[0] : undefined;
    const candidates = [
      header.example,
      namedExample === undefined ? undefined : resolveRef(document, namedExample).value,
      schema.const,
      schema.example,
      Array.isArray(schema.examples) ? schema.examples[0] : undefined,
    ];
    headers[name] = {
      required: header.required === true,
      schema,
      example: candidates.find((candidate) => candidate !== undefined),
    };
  }
  const content = (definition.content as Record<string, JsonObject> | undefined)?.['application/json'];
  const examples = Object.fromEntries(
    Object.entries((content?.examples as JsonObject | undefined) ?? {}).map(([name, example]) => [
      name,
      resolveRef<{ value?: unknown }>(document, example).value,
    ]),
  );
  return { definition, headers, examples };
}

/**
 * The request body's JSON media types with their schemas: `application/json` first, then the
 * `+json` types in the document's order. Another type is none the module reads
 * (`unreadableRequestMediaTypes` names it, and `npm run generate` refuses this contract with one).
 */
function jsonBodies(document: OpenApiDocument, node: unknown): Array<{ mediaType: string; schema: JsonSchema }> {
  if (node === undefined) return [];
  const content = resolveRef<{ content?: Record<string, { schema?: JsonSchema }> }>(document, node).content ?? {};
  return Object.entries(content)
    .flatMap(([declared, media]) => {
      const mediaType = declared.toLowerCase();
      return isJsonMediaType(mediaType) && media.schema !== undefined ? [{ mediaType, schema: media.schema }] : [];
    })
    .sort((a, b) => Number(b.mediaType === 'application/json') - Number(a.mediaType === 'application/json'));
}

function contractPath(servedPath: string, operations: ContractOperation[]): ContractPath {
  const byMethod = new Map(
    operations.flatMap((operation) => operation.methods.map((method) => [method, operation] as const)),
  );
  return {
    servedPath,
    operations,
    allow: [...byMethod.keys()].sort(),
    operationFor: (method) => byMethod.get(method.toUpperCase()),
  };
}

function pathPattern(servedPath: string): { pattern: RegExp; names: string[] } {
  const names: string[] = [];
  const source = servedPath
    .split('/')
    .map((segment) => {
      const name = /^\{([^}]+)\}$/.exec(segment)?.[1];
      if (name === undefined) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(name);
      return '([^/]+)';
    })
    .join('/');
  return { pattern: new RegExp(`^${source}$`), names };
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
