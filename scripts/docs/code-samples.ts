// The code samples of an operation, written from the contract so they cannot fall behind it: a
// `curl` command and a call with the typed client `@animal-store/client`, as Redoc shows them
// from `x-codeSamples`. Each sends the operation's required parameters and its request body at
// their first example (as the media type the operation declares), to the first server (at its
// variables' defaults), with the key the operation's security asks for;
// `test/scripts/docs/code-samples.test.ts` compiles and runs them. The operation that fetches or
// changes one item of a collection asks for the item its own success example shows, which the
// mocks serve (a parameter's example may name an item no example shows).

import { collectionsOf } from '../../contract/collections.ts';
import { Contract } from '../../contract/contract.ts';
import {
  type JsonObject,
  type OpenApiDocument,
  type OperationObject,
  resolveRef,
  type ServerObject,
} from '../../contract/document.ts';
import { isJsonMediaType } from '../../contract/media-types.ts';

export interface CodeSample {
  lang: string;
  label: string;
  source: string;
}

/** What a reader replaces with their own key. */
const API_KEY_PLACEHOLDER = 'YOUR_API_KEY';
export const CLIENT_PACKAGE = '@animal-store/client';
/**
 * The samples' languages, in the order the docs' language menu offers them. Redoc lists a sample
 * only when its label is among the languages it is given (by default curl, JavaScript, Python and
 * others, never a package), so the docs give it these.
 */
export const SAMPLE_LANGUAGES = [
  { lang: 'Shell', label: 'curl' },
  { lang: 'TypeScript', label: CLIENT_PACKAGE },
] as const;

interface ParameterExamples {
  example?: unknown;
  examples?: Record<string, unknown>;
  schema?: JsonObject;
}

interface Parameter extends ParameterExamples {
  name: string;
  in: string;
  required?: boolean;
}

/** The id parameter of each operation that fetches or changes one item, with the id of the item its success example shows. */
export type DocumentedItems = ReadonlyMap<string, { parameter: string; id: unknown }>;

export function documentedItems(document: OpenApiDocument): DocumentedItems {
  const items = new Map<string, { parameter: string; id: unknown }>();
  for (const collection of collectionsOf(new Contract(document))) {
    const { idParameter } = collection;
    if (idParameter === undefined) continue;
    for (const operation of [collection.fetch, collection.update]) {
      if (operation === undefined) continue;
      const success = Object.entries(operation.responses).find(([status]) => status.startsWith('2'))?.[1];
      const [example] = Object.values(success?.examples ?? {});
      const id = (example as { id?: unknown } | undefined)?.id;
      if (id !== undefined) items.set(operation.operationId, { parameter: idParameter, id });
    }
  }
  return items;
}

export function codeSamples(document: object, operation: OperationObject, items: DocumentedItems): CodeSample[] {
  const item = items.get(String(operation.definition.operationId));
  const { definition } = operation;
  const servers = operation.pathServers ?? ((document as { servers?: ServerObject[] }).servers as ServerObject[]);
  const server = servers[0];
  if (server === undefined) throw new Error(`${operation.method} ${operation.path}: the contract names no server.`);
  const baseUrl = server.url.replace(/\{([^}]+)\}/g, (placeholder, name: string) => {
    const value = server.variables?.[name]?.default;
    return value ?? placeholder;
  });
  const parameters = [...operation.pathParameters, ...((definition.parameters as unknown[] | undefined) ?? [])]
    .map((node) => resolveRef<Parameter>(document, node))
    .filter((parameter) => parameter.required === true);
  const valued = parameters.map((parameter) => {
    const value = parameter.name === item?.parameter ? item.id : parameterExample(document, parameter);
    if (value === undefined)
      throw new Error(
        `${operation.method} ${operation.path}: the required parameter ${parameter.name} has no example.`,
      );
    return { ...parameter, value };
  });
  const security = (definition.security ?? (document as { security?: unknown[] }).security ?? []) as object[];
  const needsKey = security.length > 0 && security.every((requirement) => Object.keys(requirement).length > 0);
  const body = requestBodyExample(document, definition);

  const path = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
    encodeURIComponent(String(valued.find((parameter) => parameter.name === name)?.value)),
  );
  const query = new URLSearchParams(
    valued
      .filter((parameter) => parameter.in === 'query')
      .map((parameter): [string, string] => [parameter.name, String(parameter.value)]),
  ).toString();
  const headers = valued.filter((parameter) => parameter.in === 'header');

  const curl = [
    `curl -X ${operation.method} ${shellQuote(`${baseUrl}${path}${query ? `?${query}` : ''}`)}`,
    ...(needsKey ? [`-H ${shellQuote(`Authorization: Bearer ${API_KEY_PLACEHOLDER}`)}`] : []),
    ...headers.map((header) => `-H ${shellQuote(`${header.name}: ${String(header.value)}`)}`),
    ...(body === undefined
      ? []
      : [
          `-H ${shellQuote(`Content-Type: ${body.mediaType}`)}`,
          `-d ${shellQuote(JSON.stringify(body.value, null, 2))}`,
        ]),
  ].join(' \\\n  ');

  const options: string[] = [];
  for (const place of ['path', 'query', 'header']) {
    const inPlace = valued.filter((parameter) => parameter.in === place);
    if (inPlace.length === 0) continue;
    const fields = inPlace.map((parameter) => `${propertyName(parameter.name)}: ${literal(parameter.value)}`);
    options.push(`${place}: { ${fields.join(', ')} }`);
  }
  const init = [
    ...(options.length > 0 ? [`params: { ${options.join(', ')} }`] : []),
    ...(body === undefined ? [] : [`body: ${literal(body.value)}`]),
  ];
  const typescript = [
    `import { createAnimalStoreClient } from '${CLIENT_PACKAGE}';`,
    '',
    // The client sends the key on every request; an operation without security ignores it.
    `const api = createAnimalStoreClient({ baseUrl: '${baseUrl}', apiKey: '${API_KEY_PLACEHOLDER}' });`,
    '',
    `const { data, error } = await api.${operation.method}('${operation.path}'${init.length > 0 ? `, { ${init.join(', ')} }` : ''});`,
    'if (error) throw new Error(JSON.stringify(error));',
    'console.log(data);',
    '',
  ].join('\n');

  const [shell, client] = SAMPLE_LANGUAGES;
  return [
    { ...shell, source: curl },
    { ...client, source: typescript },
  ];
}

/** The parameter's `example`, first named example or first schema example; undefined when it has none. */
export function parameterExample(document: object, parameter: ParameterExamples): unknown {
  const [named] = Object.values(parameter.examples ?? {});
  const schema = parameter.schema && resolveRef<JsonObject>(document, parameter.schema);
  return (
    parameter.example ??
    (named === undefined ? undefined : resolveRef<JsonObject>(document, named).value) ??
    (Array.isArray(schema?.examples) ? schema.examples[0] : undefined)
  );
}

/**
 * The first example of the operation's JSON request body (`application/json`'s, else a `+json`
 * type's, a merge patch's) with its media type; undefined when it takes none.
 */
export function requestBodyExample(
  document: object,
  definition: JsonObject,
): { mediaType: string; value: unknown } | undefined {
  if (definition.requestBody === undefined) return undefined;
  const content = resolveRef<{ content?: Record<string, JsonObject> }>(document, definition.requestBody).content ?? {};
  const mediaType = 'application/json' in content ? 'application/json' : Object.keys(content).find(isJsonMediaType);
  const json = mediaType === undefined ? undefined : content[mediaType];
  if (mediaType === undefined || json === undefined) return undefined;
  if (json.example !== undefined) return { mediaType, value: json.example };
  const [first] = Object.values((json.examples as Record<string, unknown> | undefined) ?? {});
  return first === undefined ? undefined : { mediaType, value: resolveRef<JsonObject>(document, first).value };
}

/** A value as a TypeScript literal: keys unquoted where they can be, as people write them. */
function literal(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(literal).join(', ')}]`;
  if (typeof value === 'object' && value !== null) {
    const fields = Object.entries(value).map(([key, field]) => `${propertyName(key)}: ${literal(field)}`);
    return fields.length === 0 ? '{}' : `{ ${fields.join(', ')} }`;
  }
  return JSON.stringify(value);
}

function propertyName(name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name);
}

function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}
