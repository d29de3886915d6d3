// What the fuzzer reads of each operation beyond what the contract module reads for the service:
// the named examples of parameters and bodies, how the key is sent, the links its answers declare,
// which schemas identify resources, and which parameters only the API itself hands out.
import type { Contract, ContractOperation } from '../contract/contract.ts';
import { type JsonObject, resolveRef } from '../contract/document.ts';
import type { KeyPlacement } from './requests.ts';

interface Example {
  name: string;
  value: unknown;
}

interface FuzzParameter {
  name: string;
  in: 'query' | 'path' | 'header';
  required: boolean;
  /** As the document writes it: a node of the document, which the validators are compiled for. */
  schema: JsonObject;
  /** `$ref` followed: two parameters or fields with the same such node hold the same kind of value. */
  resolved: JsonObject;
  examples: Example[];
  /**
   * Its values are the API's to hand out, never the client's to make up: a string the schema does
   * not constrain, which the links the operation's answers declare carry (an opaque page cursor).
   */
  issuedByApi: boolean;
}

interface FuzzBody {
  schema: JsonObject;
  resolved: JsonObject;
  mediaType: string;
  required: boolean;
  examples: Example[];
}

/** An OpenAPI Link Object: a request its answer makes possible, its values taken from that answer. */
export interface Link {
  name: string;
  operationId: string;
  /** Runtime expressions (`$response.body#/id`) or constants, by parameter name. */
  parameters: Record<string, unknown>;
  requestBody?: unknown;
}

export interface FuzzOperation {
  id: string;
  contract: ContractOperation;
  parameters: FuzzParameter[];
  body?: FuzzBody;
  /** Whether the operation asks for a key (its security, or the document's, requires one). */
  requiresKey: boolean;
  /** Where a given key goes, also where one is optional; undefined where none is taken, or one the fuzzer cannot send. */
  keyPlacements?: KeyPlacement[];
  /** Its answers' declared links, by status. */
  links: Record<string, Link[]>;
}

/** Every operation of the contract as the fuzzer reads it, and the schemas that identify resources. */
export interface Operations {
  all: FuzzOperation[];
  byId: ReadonlyMap<string, FuzzOperation>;
  /** The schemas of path parameters (`PetId`): a value of one names a resource the API may not have. */
  identifiers: ReadonlySet<object>;
  /**
   * Whether an answer of the operation at `path` hands out ids of this kind: those on the paths of
   * the resource the id names (`/pets`, `/pets/{petId}` for `PetId`), not ids of it another
   * resource merely holds (an order's `petId`, which the client chose).
   */
  handsOut(kind: object, path: string): boolean;
}

export function readOperations(contract: Contract): Operations {
  const all = contract.operations.map((operation) => readOperation(contract, operation));
  // Each kind of id with the paths of its resource: the path up to the parameter (`/pets`).
  const homes = new Map<object, string[]>();
  for (const operation of all)
    for (const parameter of operation.parameters)
      if (parameter.in === 'path') {
        const home = operation.contract.path.slice(0, operation.contract.path.indexOf(`{${parameter.name}}`));
        homes.set(parameter.resolved, [...(homes.get(parameter.resolved) ?? []), home.replace(/\/$/, '')]);
      }
  const identifiers = new Set<object>(homes.keys());
  const byId = new Map(all.map((operation) => [operation.id, operation]));
  // A parameter an OpenAPI link fills is handed out by the API too, whatever its schema says.
  for (const operation of all)
    for (const links of Object.values(operation.links))
      for (const link of links)
        for (const parameter of byId.get(link.operationId)?.parameters ?? [])
          if (parameter.in === 'query' && parameter.name in link.parameters && isUnconstrainedText(parameter.resolved))
            parameter.issuedByApi = true;
  return {
    all,
    byId,
    identifiers,
    handsOut: (kind, path) => (homes.get(kind) ?? []).some((home) => path === home || path.startsWith(`${home}/`)),
  };
}

function readOperation(contract: Contract, operation: ContractOperation): FuzzOperation {
  const { document } = contract;
  const pathItem = resolveRef<JsonObject>(document, document.paths[operation.path]);
  const declared = [
    ...((pathItem.parameters as unknown[]) ?? []),
    ...((operation.definition.parameters as unknown[]) ?? []),
  ]
    .map((node) => resolveRef<JsonObject>(document, node))
    .filter((parameter) => ['query', 'path', 'header'].includes(parameter.in as string));
  // An operation's own parameter replaces the path item's of the same name and place.
  const unique = new Map(declared.map((parameter) => [`${parameter.in} ${parameter.name}`, parameter]));
  // Arrays and objects as parameters have serialisation styles the contract's request validator
  // does not read: such a parameter is left out (a request without a required one is refused).
  for (const [key, parameter] of unique) {
    const type = resolveRef<JsonObject>(document, parameter.schema ?? {}).type;
    if (type === 'array' || type === 'object') unique.delete(key);
  }
  const linked = linkedParameters(operation);
  const parameters = [...unique.values()].map((parameter): FuzzParameter => {
    const schema = (parameter.schema ?? {}) as JsonObject;
    const resolved = resolveRef<JsonObject>(document, schema);
    const name = parameter.name as string;
    return {
      name,
      in: parameter.in as FuzzParameter['in'],
      required: parameter.required === true,
      schema,
      resolved,
      examples: examplesOf(document, parameter, resolved),
      issuedByApi: parameter.in === 'query' && linked.has(name) && isUnconstrainedText(resolved),
    };
  });
  return {
    id: operation.operationId,
    contract: operation,
    parameters,
    body: readBody(contract, operation),
    ...security(contract, operation),
    links: readLinks(contract, operation),
  };
}

/** A string schema without `enum`, `const`, `pattern` or `format`: nothing tells its valid values from others. */
function isUnconstrainedText(schema: JsonObject): boolean {
  return (
    schema.type === 'string' && !('enum' in schema || 'const' in schema || 'pattern' in schema || 'format' in schema)
  );
}

/** The query parameters named in the RFC 8288 links (`<...?cursor=...>; rel="next"`) of the operation's declared header examples. */
function linkedParameters(operation: ContractOperation): Set<string> {
  const names = new Set<string>();
  for (const response of Object.values(operation.responses))
    for (const header of Object.values(response.headers)) {
      if (typeof header.example !== 'string') continue;
      for (const [, target] of header.example.matchAll(/<([^>]*)>/g))
        for (const name of new URL(target ?? '', 'http://link.invalid').searchParams.keys()) names.add(name);
    }
  return names;
}

/** The examples of a parameter or media type: `example`, each of `examples`, then its schema's. */
function examplesOf(document: object, holder: JsonObject, schema: JsonObject): Example[] {
  const found: Example[] = [];
  if ('example' in holder) found.push({ name: 'example', value: holder.example });
  for (const [name, node] of Object.entries((holder.examples as JsonObject | undefined) ?? {})) {
    const example = resolveRef<JsonObject>(document, node);
    if ('value' in example) found.push({ name, value: example.value });
  }
  if (Array.isArray(schema.examples))
    for (const [index, value] of schema.examples.entries()) found.push({ name: `schema example ${index + 1}`, value });
  else if ('example' in schema) found.push({ name: 'schema example', value: schema.example });
  return found;
}

function readBody(contract: Contract, operation: ContractOperation): FuzzBody | undefined {
  const { bodySchema, bodyMediaType } = operation;
  if (bodySchema === undefined || bodyMediaType === undefined) return undefined;
  const { document } = contract;
  const requestBody = resolveRef<JsonObject>(document, operation.definition.requestBody);
  const media = resolveRef<JsonObject>(
    document,
    (requestBody.content as Record<string, unknown>)[bodyMediaType] as JsonObject,
  );
  const resolved = resolveRef<JsonObject>(document, bodySchema);
  return {
    schema: bodySchema,
    resolved,
    mediaType: bodyMediaType,
    required: requestBody.required === true,
    examples: examplesOf(document, media, resolved),
  };
}

/** Whether the operation's security asks for a key, and where the key goes when one is given and it takes one. */
function security(
  contract: Contract,
  operation: ContractOperation,
): Pick<FuzzOperation, 'requiresKey' | 'keyPlacements'> {
  const { document } = contract;
  const requirements = (operation.definition.security ?? document.security ?? []) as Array<Record<string, unknown>>;
  // An empty requirement among them (or none at all): the operation may be called without a key.
  const requiresKey =
    requirements.length > 0 && requirements.every((requirement) => Object.keys(requirement).length > 0);
  const schemes = ((document.components as JsonObject | undefined)?.securitySchemes ?? {}) as Record<string, unknown>;
  for (const requirement of requirements) {
    if (Object.keys(requirement).length === 0) continue;
    const placements = Object.keys(requirement).map((name) =>
      schemes[name] === undefined ? undefined : placementOf(resolveRef<JsonObject>(document, schemes[name])),
    );
    if (placements.every((placement) => placement !== undefined)) return { requiresKey, keyPlacements: placements };
  }
  return { requiresKey };
}

function placementOf(scheme: JsonObject): KeyPlacement | undefined {
  const bearer: KeyPlacement = { in: 'header', name: 'Authorization', format: (key) => `Bearer ${key}` };
  switch (scheme.type) {
    case 'http':
      if (String(scheme.scheme).toLowerCase() === 'bearer') return bearer;
      if (String(scheme.scheme).toLowerCase() === 'basic')
        return {
          in: 'header',
          name: 'Authorization',
          format: (key) => `Basic ${Buffer.from(key).toString('base64')}`,
        };
      return undefined;
    case 'apiKey':
      return ['header', 'query', 'cookie'].includes(scheme.in as string)
        ? { in: scheme.in as KeyPlacement['in'], name: scheme.name as string, format: (key) => key }
        : undefined;
    // An access token given as the key.
    case 'oauth2':
    case 'openIdConnect':
      return bearer;
    default:
      return undefined;
  }
}

function readLinks(contract: Contract, operation: ContractOperation): Record<string, Link[]> {
  const { document } = contract;
  const links: Record<string, Link[]> = {};
  for (const [status, response] of Object.entries(operation.responses)) {
    const declared = (response.definition.links ?? {}) as Record<string, unknown>;
    links[status] = Object.entries(declared).flatMap(([name, node]) => {
      const link = resolveRef<JsonObject>(document, node);
      const target =
        typeof link.operationId === 'string'
          ? link.operationId
          : typeof link.operationRef === 'string'
            ? operationAt(contract, link.operationRef)
            : undefined;
      if (target === undefined) return [];
      return [
        {
          name,
          operationId: target,
          parameters: (link.parameters ?? {}) as Record<string, unknown>,
          ...('requestBody' in link && { requestBody: link.requestBody }),
        },
      ];
    });
  }
  return links;
}

/** The operationId a local `operationRef` (`#/paths/~1pets~1{petId}/get`) points at; none for one into another document. */
function operationAt(contract: Contract, ref: string): string | undefined {
  if (!ref.startsWith('#/')) return undefined;
  const target = resolveRef<JsonObject>(contract.document, { $ref: ref });
  return contract.operations.find((operation) => operation.definition === target)?.operationId;
}
