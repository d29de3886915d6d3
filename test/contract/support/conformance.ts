// Judges one HTTP response against what the contract declares for its operation: the status,
// the media type, every header and the body. Schemas are validated where they stand in the
// bundled contract, so this checks the contract itself, not a copy.

import type { ValidateFunction } from 'ajv/dist/2020.js';
import type { HeaderObject, MediaTypeObject, ResponseObject, SchemaObject } from 'openapi-typescript';
import { componentSchema, resolve, responses } from '../../spec/contract.ts';
import { validatorFor } from '../../spec/schema-validator.ts';

/** A response as read off the wire, body already read, so checks never race the stream. */
export interface ApiResponse {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed JSON body, or undefined when the body is empty or not JSON. */
  body: unknown;
}

const validators = new WeakMap<object, ValidateFunction>();

function validate(schema: object, value: unknown): string[] {
  let validator = validators.get(schema);
  if (!validator) {
    validator = validatorFor(schema);
    validators.set(schema, validator);
  }
  if (validator(value)) return [];
  return (validator.errors ?? []).map((error) => `${error.instancePath || '(root)'} ${error.message ?? 'is invalid'}`);
}

/** The operation's declared statuses, so a message can list them. */
export function declaredStatuses(operationId: string): string[] {
  return responses(operationId).map(([status]) => status);
}

export function declaredResponse(operationId: string, status: number): ResponseObject | undefined {
  return responses(operationId).find(([declared]) => declared === String(status))?.[1];
}

export function mediaTypeOf(headers: Headers): string | undefined {
  return headers.get('Content-Type')?.split(';')[0]?.trim().toLowerCase() || undefined;
}

/** Header values are text; a header whose schema is an integer is read as one only when written as one. */
function headerValue(text: string, schema: SchemaObject): unknown {
  const type = (resolve(schema) as { type?: unknown }).type;
  if ((type === 'integer' || type === 'number') && /^-?(0|[1-9][0-9]*)$/.test(text)) return Number(text);
  return text;
}

/** Everything about `response` that the contract's declaration for `operationId` does not allow. */
export function conformanceProblems(operationId: string, response: ApiResponse): string[] {
  const declared = declaredResponse(operationId, response.status);
  if (!declared)
    return [
      `${operationId} declares no ${response.status} response (it declares ${declaredStatuses(operationId).join(', ')})`,
    ];
  const problems: string[] = [];

  for (const [name, reference] of Object.entries(declared.headers ?? {})) {
    const header = resolve<HeaderObject>(reference);
    const text = response.headers.get(name);
    if (text === null) {
      if (header.required) problems.push(`header ${name} is required but missing`);
      continue;
    }
    if (header.schema === undefined) continue;
    for (const error of validate(header.schema, headerValue(text, header.schema)))
      problems.push(`header ${name}: ${JSON.stringify(text)} ${error}`);
  }

  const content = declared.content ?? {};
  const mediaType = mediaTypeOf(response.headers);
  if (Object.keys(content).length === 0) {
    if (response.text !== '') problems.push(`the ${response.status} response declares no body but has one`);
    return problems;
  }
  const media = mediaType === undefined ? undefined : content[mediaType];
  if (media === undefined) {
    problems.push(
      `Content-Type ${mediaType ?? '(none)'} is not declared for ${response.status} (declared: ${Object.keys(content).join(', ')})`,
    );
    return problems;
  }
  const schema = resolve<MediaTypeObject>(media).schema;
  if (schema === undefined) return problems;
  if (response.body === undefined)
    return [...problems, `the body is not JSON: ${JSON.stringify(response.text.slice(0, 200))}`];
  for (const error of validate(schema, response.body)) problems.push(`body ${error}`);
  return problems;
}

/**
 * For an error response, also outside any operation (unknown path, undeclared method): the one
 * Error body, as JSON, with `status` repeating the HTTP status.
 */
export function errorBodyProblems(response: ApiResponse): string[] {
  const problems: string[] = [];
  if (mediaTypeOf(response.headers) !== 'application/json')
    problems.push(`Content-Type is ${response.headers.get('Content-Type') ?? '(none)'}, not application/json`);
  if (response.body === undefined)
    return [...problems, `the body is not JSON: ${JSON.stringify(response.text.slice(0, 200))}`];
  for (const error of validate(componentSchema('Error'), response.body)) problems.push(`Error body ${error}`);
  const status = (response.body as { status?: unknown }).status;
  if (status !== response.status)
    problems.push(`Error body status ${JSON.stringify(status)} differs from the HTTP status ${response.status}`);
  return problems;
}
