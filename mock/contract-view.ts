// What the mock's front needs to know about the bundled contract: which operation a request
// reaches, which methods a path allows, and which headers (with their example values) a
// response of a given status declares. Read from the bundle itself, so a reload changes it too.

export type JsonObject = Record<string, unknown>;

/** The parts of an OpenAPI 3.1 bundle this module reads; the rest passes through untouched. */
export interface OpenApiDocument extends JsonObject {
  servers?: { url: string; variables?: Record<string, { default: string }> }[];
  paths: Record<string, JsonObject>;
}

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export interface ContractOperation {
  operationId: string;
  /** Upper case, as on the wire. */
  method: string;
  /** The path the mock serves, with the base path: `/v1/pets/{petId}`. */
  path: string;
  /** Declared responses by status code, `$ref`s resolved. */
  responses: Record<string, JsonObject>;
  /** It declares a request body; other operations ignore one, as the server does. */
  takesBody: boolean;
}

interface Route {
  path: string;
  pattern: RegExp;
  /** Literal segments first, as OpenAPI asks: `/pets/mine` wins over `/pets/{petId}`. */
  templatedSegments: number;
  operations: Map<string, ContractOperation>;
}

export interface RouteMatch {
  path: string;
  operation: ContractOperation | undefined;
  /** Methods the path supports, as an `Allow` header lists them (HEAD wherever GET is). */
  allow: string[];
}

export class ContractView {
  readonly basePath: string;
  readonly #document: OpenApiDocument;
  readonly #routes: Route[];
  readonly #commonHeaders: Record<string, string>;

  constructor(document: OpenApiDocument) {
    this.#document = document;
    this.basePath = basePathOf(document);
    this.#routes = Object.entries(document.paths)
      .map(([path, pathItem]) => this.#route(this.basePath + path, pathItem))
      .sort((a, b) => a.templatedSegments - b.templatedSegments);
    this.#commonHeaders = this.#headersOnEveryResponse();
  }

  /** The route `path` (without query) reaches, if the contract has one. */
  match(method: string, path: string): RouteMatch | undefined {
    const route = this.#routes.find((candidate) => candidate.pattern.test(path));
    if (!route) return undefined;
    const methods = [...route.operations.keys()];
    const allow = [...new Set([...methods, ...(methods.includes('GET') ? ['HEAD'] : [])])].sort();
    return { path: route.path, operation: route.operations.get(method.toUpperCase()), allow };
  }

  /**
   * Header values for a response the mock writes itself: the example values of the headers the
   * operation declares for `status`, or else of the headers every response of the contract
   * declares (the rate-limit headers), so that no answer lacks them.
   */
  exampleHeaders(operation: ContractOperation | undefined, status: number): Record<string, string> {
    const declared = operation?.responses[String(status)];
    if (!declared) return { ...this.#commonHeaders };
    return this.#exampleValues((declared.headers as Record<string, unknown> | undefined) ?? {});
  }

  #route(path: string, pathItem: JsonObject): Route {
    const segments = path.split('/');
    const pattern = new RegExp(
      `^${segments.map((segment) => (/^\{[^}]+\}$/.test(segment) ? '[^/]+' : escapeRegExp(segment))).join('/')}$`,
    );
    const operations = new Map<string, ContractOperation>();
    for (const method of HTTP_METHODS) {
      const operation = pathItem[method] as JsonObject | undefined;
      if (!operation) continue;
      const responses: Record<string, JsonObject> = {};
      for (const [status, response] of Object.entries((operation.responses as JsonObject | undefined) ?? {})) {
        responses[status] = this.#resolve(response);
      }
      const upper = method.toUpperCase();
      operations.set(upper, { operationId: String(operation.operationId), method: upper, path, responses, takesBody: 'requestBody' in operation });
    }
    return { path, pattern, templatedSegments: segments.filter((segment) => segment.startsWith('{')).length, operations };
  }

  #headersOnEveryResponse(): Record<string, string> {
    const declaredSets = this.#routes.flatMap((route) =>
      [...route.operations.values()].flatMap((operation) =>
        Object.values(operation.responses).map((response) => (response.headers as Record<string, unknown> | undefined) ?? {}),
      ),
    );
    const [first, ...rest] = declaredSets;
    if (!first) return {};
    const shared = Object.fromEntries(Object.entries(first).filter(([name]) => rest.every((headers) => name in headers)));
    return this.#exampleValues(shared);
  }

  #exampleValues(headers: Record<string, unknown>): Record<string, string> {
    const values: Record<string, string> = {};
    for (const [name, node] of Object.entries(headers)) {
      const value = exampleOf(this.#resolve(node));
      if (value !== undefined) values[name] = value;
    }
    return values;
  }

  #resolve(node: unknown): JsonObject {
    return resolveRef(this.#document, node);
  }
}

/** `node`, or what its local `$ref` (`#/components/...`) points at, followed to the end. */
export function resolveRef(document: JsonObject, node: unknown): JsonObject {
  let current = node as JsonObject;
  while (typeof current.$ref === 'string') {
    current = current.$ref
      .replace(/^#\//, '')
      .split('/')
      .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce<JsonObject>((value, key) => value[key] as JsonObject, document);
  }
  return current;
}

/**
 * The path every server URL of the contract shares (`/v1`): the real service serves the paths
 * under it, and so must the mock. Prism itself ignores it.
 */
export function basePathOf(document: OpenApiDocument): string {
  const basePaths = new Set(
    (document.servers ?? []).map((server) => {
      const url = server.url.replace(/\{([^}]+)\}/g, (_, name: string) => server.variables?.[name]?.default ?? '');
      return new URL(url, 'http://localhost').pathname.replace(/\/$/, '');
    }),
  );
  if (basePaths.size > 1) throw new Error(`The contract's servers disagree on the base path: ${[...basePaths].join(', ')}`);
  return [...basePaths][0] ?? '';
}

function exampleOf(header: JsonObject): string | undefined {
  const schema = (header.schema as JsonObject | undefined) ?? {};
  const examples = header.examples as Record<string, { value?: unknown }> | undefined;
  const candidates = [
    header.example,
    examples ? Object.values(examples)[0]?.value : undefined,
    schema.const,
    schema.example,
    Array.isArray(schema.examples) ? schema.examples[0] : undefined,
  ];
  const value = candidates.find((candidate) => candidate !== undefined);
  return value === undefined ? undefined : String(value);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
