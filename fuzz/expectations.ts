// What the contract lets a request expect, decided by the contract module's own request validator
// and schemas, never by what the fuzzer meant to send: a request with no key or a garbled one to an
// operation that asks for one must be refused; one that breaks the contract must get a 4xx; one the
// contract allows must not get a 4xx that blames its input, except where the contract itself says a
// valid value may be refused: an id that names nothing, a value only the API hands out, a fixed
// header value that may repeat one sent before.
import type { Contract } from '../contract/contract.ts';
import { resolveRef } from '../contract/document.ts';
import { type RequestValidator, requestValidator } from '../contract/request-validator.ts';
import type { FuzzOperation, Operations } from './operations.ts';
import type { FuzzRequest } from './requests.ts';
import type { Values } from './values.ts';

export type Expectation =
  | { kind: 'refused'; credentials: 'none' | 'garbled' }
  | { kind: 'invalid'; problems: string[] }
  /** `excused`: the 4xx statuses the request may get all the same; `any` for any. */
  | { kind: 'valid'; excused: Array<number | 'any'> };

/**
 * Values the API handed out in its answers: ids (in bodies, where their schema is an identifier's,
 * and in `Location`) and the values of parameters only it issues (in `rel="next"` links). Kept by
 * the kind of value: an identifier schema or a parameter.
 */
export class IssuedValues {
  readonly #values = new Map<object, Set<string>>();

  add(kind: object, value: string): void {
    const known = this.#values.get(kind) ?? new Set<string>();
    known.add(value);
    this.#values.set(kind, known);
  }

  delete(kind: object, value: string): void {
    this.#values.get(kind)?.delete(value);
  }

  has(kind: object, value: string): boolean {
    return this.#values.get(kind)?.has(value) ?? false;
  }

  /** The values known of this kind, oldest first. */
  of(kind: object): string[] {
    return [...(this.#values.get(kind) ?? [])];
  }
}

export interface ExpectationSettings {
  contract: Contract;
  operations: Operations;
  values: Values;
  issued: IssuedValues;
  /** The target keeps what it is sent: an id it handed out names something. */
  stateful: boolean;
}

export function expectationOf(settings: ExpectationSettings): (request: FuzzRequest) => Expectation {
  const validator = requestValidator(settings.contract);
  return (request) => {
    const operation = settings.operations.byId.get(request.operationId);
    if (!operation) throw new Error(`No operation ${request.operationId}`);
    if (operation.requiresKey && request.credentials !== 'key')
      return { kind: 'refused', credentials: request.credentials };
    const problems = [
      ...bodyProblems(operation, request),
      ...parameterProblems(settings, validator, operation, request),
    ];
    if (problems.length > 0) return { kind: 'invalid', problems };
    return { kind: 'valid', excused: excusedStatuses(settings, operation, request) };
  };
}

function mediaTypeOf(contentType: string | undefined): string | undefined {
  return contentType?.split(';')[0]?.trim().toLowerCase();
}

function bodyProblems(operation: FuzzOperation, request: FuzzRequest): string[] {
  const { body } = operation;
  if (body === undefined) return [];
  if (request.body === undefined) return body.required ? ['the request has no body, which the operation requires'] : [];
  const problems: string[] = [];
  const mediaType = mediaTypeOf(request.body.contentType);
  if (mediaType !== body.mediaType)
    problems.push(`the body is sent as ${mediaType ?? 'no Content-Type'}, not ${body.mediaType}`);
  if (request.json === undefined) problems.push(`the body is not ${body.mediaType}: ${request.body.text.slice(0, 60)}`);
  const limit = operation.contract.maxBodyBytes;
  const size = Buffer.byteLength(request.body.text);
  if (limit !== undefined && size > limit) problems.push(`the body of ${size} bytes is over x-max-body-bytes ${limit}`);
  return problems;
}

function parameterProblems(
  { values }: ExpectationSettings,
  validator: RequestValidator,
  operation: FuzzOperation,
  request: FuzzRequest,
): string[] {
  // The validator fills in defaults: it gets a copy, so the request keeps what was sent.
  const body = request.json === undefined ? undefined : structuredClone(request.json);
  const verdict = validator.validate(operation.id, { query: request.query, path: request.pathParams, body });
  const judgedBody = request.json !== undefined;
  const problems = verdict.valid
    ? []
    : verdict.problems.filter((problem) => problem.in !== 'body' || judgedBody).map((problem) => problem.message);
  const headers = new Map(Object.entries(request.headers).map(([name, value]) => [name.toLowerCase(), value]));
  for (const parameter of operation.parameters) {
    if (parameter.in !== 'header') continue;
    const text = headers.get(parameter.name.toLowerCase());
    if (text === undefined) {
      if (parameter.required) problems.push(`Header ${parameter.name} is required.`);
    } else if (!values.accepts(parameter.schema, values.fromText(parameter.resolved, text)))
      problems.push(`Header ${parameter.name} does not fit its schema: ${JSON.stringify(text.slice(0, 60))}.`);
  }
  return problems;
}

/** The 4xx a valid request may get all the same, from what the contract says a valid value may meet. */
function excusedStatuses(
  { contract, operations, issued, stateful }: ExpectationSettings,
  operation: FuzzOperation,
  request: FuzzRequest,
): Array<number | 'any'> {
  const excused: Array<number | 'any'> = [];
  // A body of a media type other than JSON is not sent: the request lacks what the operation reads.
  if (operation.body === undefined && operation.contract.definition.requestBody !== undefined) excused.push('any');
  const issuedValue = (kind: object, value: string) => stateful && issued.has(kind, value);
  for (const parameter of operation.parameters) {
    const value =
      parameter.in === 'path'
        ? request.pathParams[parameter.name]
        : parameter.in === 'query'
          ? request.query[parameter.name]
          : undefined;
    if (value === undefined) continue;
    // A value only the API hands out, made up: the API may refuse it however it likes.
    if (parameter.issuedByApi && !issuedValue(parameter, value)) excused.push('any');
    // An id the API did not hand out may name nothing: a 404 in the path, any refusal elsewhere.
    else if (parameter.in === 'path' && !issuedValue(parameter.resolved, value)) excused.push(404);
    else if (
      parameter.in === 'query' &&
      operations.identifiers.has(parameter.resolved) &&
      !issuedValue(parameter.resolved, value)
    )
      excused.push('any');
  }
  const fields = operation.body?.resolved.properties as Record<string, object> | undefined;
  const json = request.json as Record<string, unknown> | undefined;
  if (fields && typeof json === 'object' && json !== null)
    for (const [name, value] of Object.entries(json)) {
      const schema = fields[name];
      if (schema === undefined || (typeof value !== 'string' && typeof value !== 'number')) continue;
      const kind = resolveRef<object>(contract.document, schema);
      if (operations.identifiers.has(kind) && !issuedValue(kind, String(value))) excused.push('any');
    }
  // A URL names something outside the API (`format: uri`), which the API may refuse to use (one it
  // cannot or may not reach): a 400 for it is no refusal of what the schema allows.
  if (
    fields &&
    typeof json === 'object' &&
    json !== null &&
    Object.entries(fields).some(
      ([name, schema]) => name in json && resolveRef<{ format?: string }>(contract.document, schema).format === 'uri',
    )
  )
    excused.push(400);
  // An example or a boundary is the same on every run: a header that must differ from one request
  // to the next (an Idempotency-Key) may then repeat one sent before, a conflict with that one.
  const fixedHeader = operation.parameters.some(
    (parameter) => parameter.in === 'header' && !parameter.required && parameter.name in request.headers,
  );
  if (fixedHeader && (request.origin === 'example' || request.origin === 'coverage')) excused.push(409, 422);
  return excused;
}
