// The bundled contract as the contract module reads it for every consumer (server, mock, client,
// docs), typed as OpenAPI objects, with the few lookups the tests need. Lookups throw when
// something is missing, so a test that reaches for an absent operation, response or schema fails
// with a message naming it.

import type {
  ExampleObject,
  HeaderObject,
  MediaTypeObject,
  OpenAPI3,
  OperationObject,
  ReferenceObject,
  RequestBodyObject,
  ResponseObject,
  SchemaObject,
} from 'openapi-typescript';
import { loadContract } from '../../contract/bundled.ts';
import { resolveRef } from '../../contract/document.ts';
import { isJsonMediaType } from '../../contract/media-types.ts';

const bundled = loadContract();

export const contract = bundled.document as unknown as OpenAPI3;

export interface LocatedOperation {
  operationId: string;
  /** Upper case, as on the wire. */
  method: string;
  /** As the document writes it, relative to the servers: `/pets/{petId}`, `/healthz`. */
  path: string;
  /** Where the service answers it, under the servers' base path: `/v1/pets/{petId}`, `/healthz`. */
  servedPath: string;
  /** Marked `security: []`: served without a key and outside the rate limits (the probes). */
  isPublic: boolean;
  operation: OperationObject;
}

/** The path every document-level server shares (`/v1`), under which the API proper is served. */
export const basePath = bundled.basePath;

/** Follows `$ref`s (local to the bundle, as the bundler leaves them) until a real node. */
export function resolve<T>(node: T | ReferenceObject): T {
  return resolveRef<T>(bundled.document, node);
}

export const operations: LocatedOperation[] = bundled.operations.map(
  ({ operationId, method, path, servedPath, isPublic, definition }) => ({
    operationId,
    method,
    path,
    servedPath,
    isPublic,
    operation: definition as OperationObject,
  }),
);

/**
 * The operations behind the API key, which the rules on keys, rate limits and the Error body
 * concern: every operation but the probes marked `security: []`.
 */
export const protectedOperations: LocatedOperation[] = operations.filter((candidate) => !candidate.isPublic);

export function operation(operationId: string): LocatedOperation {
  const found = operations.find((candidate) => candidate.operationId === operationId);
  if (!found) throw new Error(`The contract has no operation ${operationId}`);
  return found;
}

export function responses(operationId: string): Array<[status: string, response: ResponseObject]> {
  return Object.entries(operation(operationId).operation.responses ?? {}).map(([status, response]) => [
    status,
    resolve<ResponseObject>(response),
  ]);
}

export function response(operationId: string, status: string): ResponseObject {
  const found = responses(operationId).find(([candidate]) => candidate === status);
  if (!found) throw new Error(`${operationId} declares no ${status} response`);
  return found[1];
}

function responsesOf(located: LocatedOperation[]) {
  return located.flatMap(({ operationId }) =>
    responses(operationId).map(([status, resolved]) => ({ operationId, status, response: resolved })),
  );
}

/** Every (operation, status, response) of the contract, for rules that hold on every response. */
export const allResponses = responsesOf(operations);

export function requestBody(operationId: string): RequestBodyObject | undefined {
  const body = operation(operationId).operation.requestBody;
  return body === undefined ? undefined : resolve<RequestBodyObject>(body);
}

/** Header names are case-insensitive in HTTP, so the lookup is too. */
export function header(holder: ResponseObject, name: string): HeaderObject | undefined {
  const entry = Object.entries(holder.headers ?? {}).find(
    ([candidate]) => candidate.toLowerCase() === name.toLowerCase(),
  );
  return entry === undefined ? undefined : resolve<HeaderObject>(entry[1]);
}

/** The JSON content: `application/json`'s, else a `+json` type's (a merge patch's). */
export function jsonContent(holder: ResponseObject | RequestBodyObject): MediaTypeObject {
  const content = holder.content ?? {};
  const type = 'application/json' in content ? 'application/json' : Object.keys(content).find(isJsonMediaType);
  const media = type === undefined ? undefined : content[type];
  if (media === undefined) throw new Error('No JSON content (application/json or a +json type)');
  return resolve<MediaTypeObject>(media);
}

export function namedExamples(media: MediaTypeObject): Array<[name: string, example: ExampleObject]> {
  return Object.entries(media.examples ?? {}).map(([name, example]) => [name, resolve<ExampleObject>(example)]);
}

export function componentSchema(name: string): SchemaObject {
  const found = contract.components?.schemas?.[name];
  if (found === undefined) throw new Error(`The contract has no schema ${name}`);
  return resolve<SchemaObject>(found);
}

/** A schema's own keywords, for reading constraints without narrowing the schema union. */
export function keywords(schema: SchemaObject | ReferenceObject | undefined): Record<string, unknown> {
  return schema === undefined ? {} : (resolve<SchemaObject>(schema) as Record<string, unknown>);
}

/** The (unresolved) property schema, so keywords beside a `$ref`, such as `default`, stay visible. */
export function propertyOf(schema: SchemaObject, name: string): SchemaObject | ReferenceObject {
  const property = (keywords(schema).properties as Record<string, SchemaObject> | undefined)?.[name];
  if (property === undefined) throw new Error(`The schema has no property ${name}`);
  return property;
}
