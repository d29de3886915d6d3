// The bundled contract as parsed JSON: following its `$ref`s, and finding its operations where the
// document writes them.
export type JsonObject = Record<string, unknown>;
export type JsonSchema = JsonObject;

export interface ServerObject {
  url: string;
  variables?: Record<string, { default: string }>;
}

/** The parts of an OpenAPI 3.1 bundle read here; the rest passes through untouched. */
export interface OpenApiDocument extends JsonObject {
  info: { title: string; version: string; summary?: string; description?: string };
  servers?: ServerObject[];
  paths: Record<string, JsonObject>;
  components?: Record<string, Record<string, unknown>>;
}

/**
 * `read` done once per document (or contract) and kept with it, for as long as the document lives:
 * compiling or walking a document is the costly part, and a process reads few documents.
 */
export function oncePer<Key extends object, Value>(read: (key: Key) => Value): (key: Key) => Value {
  const kept = new WeakMap<Key, Value>();
  return (key) => {
    let value = kept.get(key);
    if (value === undefined) {
      value = read(key);
      kept.set(key, value);
    }
    return value;
  };
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/**
 * `node`, or what its `$ref` points at, followed to the end. The bundler leaves only local
 * references (`#/components/...`); anything else, or one that leads nowhere, is an error.
 */
export function resolveRef<T = JsonObject>(document: object, node: unknown): T {
  let current = node;
  const followed = new Set<string>();
  while (isReference(current)) {
    const ref = current.$ref;
    if (!ref.startsWith('#/')) throw new Error(`The bundle holds a non-local $ref: ${ref}`);
    if (followed.has(ref)) throw new Error(`Circular $ref in the bundle: ${ref}`);
    followed.add(ref);
    current = ref
      .slice(2)
      .split('/')
      .map((token) => decodeURIComponent(token).replaceAll('~1', '/').replaceAll('~0', '~'))
      .reduce<unknown>((parent, key) => {
        const child = (parent as JsonObject | undefined)?.[key];
        if (child === undefined) throw new Error(`Unresolvable $ref in the bundle: ${ref}`);
        return child;
      }, document);
  }
  return current as T;
}

/** Keywords that describe a value without constraining it: beside a `$ref`, they can join what it points at. */
const ANNOTATIONS = new Set(['title', 'description', 'default', 'example', 'examples', 'deprecated', '$comment']);

/**
 * `node` as one value that stands alone, every `$ref` inside it replaced by what it points at: for
 * a reader that takes a schema without its document (an MCP client, a page of prose). Annotations
 * beside a `$ref` (its `description`) win over those of its target; any other keyword beside one
 * keeps its meaning through `allOf`. A schema that contains itself cannot stand alone: an error.
 */
export function dereferenced(document: object, node: unknown, within: readonly string[] = []): unknown {
  if (Array.isArray(node)) return node.map((item) => dereferenced(document, item, within));
  if (typeof node !== 'object' || node === null) return node;
  if (isReference(node)) {
    const { $ref, ...beside } = node as JsonObject & { $ref: string };
    if (within.includes($ref)) throw new Error(`${$ref} contains itself, so it cannot be written out whole.`);
    const target = dereferenced(document, resolveRef(document, { $ref }), [...within, $ref]) as JsonObject;
    const rest = dereferenced(document, beside, within) as JsonObject;
    const onlyAnnotations = Object.keys(rest).every((key) => ANNOTATIONS.has(key) || key.startsWith('x-'));
    return onlyAnnotations ? { ...target, ...rest } : { allOf: [target], ...rest };
  }
  return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, dereferenced(document, value, within)]));
}

export interface OperationObject {
  /** The contract's path, e.g. `/pets/{petId}`. */
  path: string;
  /** Upper case, as on the wire. */
  method: string;
  /** The path item's parameters, which apply to each of its operations. */
  pathParameters: unknown[];
  /** The path item's own `servers`, which replace the document's for its operations. */
  pathServers: ServerObject[] | undefined;
  /** The operation object itself, as it stands in `document` (not a copy). */
  definition: JsonObject;
}

/** Every operation of `document` (a bundle, or any object with its `paths`), in the order of its paths and of the HTTP methods. */
export function operationObjects(document: object): OperationObject[] {
  const { paths = {} } = document as { paths?: Record<string, unknown> };
  return Object.entries(paths).flatMap(([path, node]) => {
    const pathItem = resolveRef<JsonObject>(document, node);
    const pathParameters = (pathItem.parameters as unknown[] | undefined) ?? [];
    const pathServers = pathItem.servers as ServerObject[] | undefined;
    return HTTP_METHODS.flatMap((method) => {
      const node = pathItem[method];
      if (node === undefined) return [];
      return [
        {
          path,
          method: method.toUpperCase(),
          pathParameters,
          pathServers,
          definition: resolveRef<JsonObject>(document, node),
        },
      ];
    });
  });
}

function isReference(node: unknown): node is { $ref: string } {
  return typeof node === 'object' && node !== null && typeof (node as { $ref?: unknown }).$ref === 'string';
}
