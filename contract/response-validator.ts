// The one response validator, beside the request validator: judges an answer against what the
// contract declares for its operation (the status, the media type, every header and the body), and
// an error answer anywhere against the one Error body. Schemas are compiled where they stand in the
// bundled contract, once per contract. The contract tests, the validating proxy and the fuzzer use
// it, the fuzzer on any OpenAPI 3.1 document: so a status may be declared by range (`4XX`) or as
// `default`, a media type by range (`application/*`), and a body that is not JSON is not parsed.
import type { ValidateFunction } from 'ajv/dist/2020.js';
import type { Contract } from './contract.ts';
import { type JsonObject, type JsonSchema, oncePer, resolveRef } from './document.ts';
import { isJsonMediaType } from './media-types.ts';
import { schemaCompiler } from './schemas.ts';

/** An answer as read off the wire, its body already read as text. */
export interface ObservedResponse {
  status: number;
  headers: { get(name: string): string | null };
  /** The body; undefined for an answer to HEAD, which declares the GET's body but never sends one. */
  text?: string;
}

/** What part of an answer a problem is about, as the fuzzer's checks are named. */
type ResponseAspect = 'status' | 'content-type' | 'header' | 'body';

interface ResponseProblem {
  aspect: ResponseAspect;
  message: string;
}

export interface ResponseValidator {
  /** Everything about `response` that the contract's declaration for `operationId` does not allow; empty when it conforms. */
  problems(operationId: string, response: ObservedResponse): string[];
  /** The same problems, each with the part of the answer it is about. */
  judge(operationId: string, response: ObservedResponse): ResponseProblem[];
  /** For an error answer, also outside any operation: the one Error body, as JSON, `status` repeating the HTTP status. */
  errorBodyProblems(response: ObservedResponse): string[];
}

/** The contract's response validator, compiled as schemas are first needed and kept with the contract. */
export const responseValidator: (contract: Contract) => ResponseValidator = oncePer(createValidator);

/**
 * The response the operation declares for `status`: its own, else its range's (`4XX`), else
 * `default` (OpenAPI 3.1, Responses Object).
 */
function declaredFor<T>(responses: Record<string, T>, status: number): T | undefined {
  return responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses.default;
}

/** The declared media type an answer's media type falls under: itself, else `type/*`, else `*\/*`. */
function declaredMedia<T>(content: Record<string, T>, mediaType: string): T | undefined {
  return content[mediaType] ?? content[`${mediaType.split('/')[0]}/*`] ?? content['*/*'];
}

/** The media type of a Content-Type header, lower case, without parameters. */
function mediaTypeOf(headers: ObservedResponse['headers']): string | undefined {
  return headers.get('Content-Type')?.split(';')[0]?.trim().toLowerCase() || undefined;
}

function createValidator(contract: Contract): ResponseValidator {
  const compiler = schemaCompiler(contract.document);
  const compiled = new WeakMap<object, ValidateFunction>();
  const schemaProblems = (schema: JsonSchema, value: unknown): string[] => {
    let validate = compiled.get(schema);
    if (!validate) {
      validate = compiler.compile({ $ref: compiler.ref(schema) });
      compiled.set(schema, validate);
    }
    if (validate(value)) return [];
    return (validate.errors ?? []).map((error) => `${error.instancePath || '(root)'} ${error.message ?? 'is invalid'}`);
  };
  // Read on first use: a document without an Error schema (any other API's) is judged all the same.
  let errorSchema: JsonSchema | undefined;

  const judge = (operationId: string, response: ObservedResponse): ResponseProblem[] => {
    const operation = contract.operation(operationId);
    const declared = declaredFor(operation.responses, response.status);
    if (!declared) {
      const statuses = Object.keys(operation.responses).join(', ');
      return [
        {
          aspect: 'status',
          message: `${operationId} declares no ${response.status} response (it declares ${statuses})`,
        },
      ];
    }
    const problems: ResponseProblem[] = [];
    const found = (aspect: ResponseAspect, message: string) => problems.push({ aspect, message });
    for (const [name, header] of Object.entries(declared.headers)) {
      const text = response.headers.get(name);
      if (text === null) {
        if (header.required) found('header', `header ${name} is required but missing`);
        continue;
      }
      // A header declared without a schema (`{}` after resolving) allows any value.
      if (Object.keys(header.schema).length === 0) continue;
      for (const error of schemaProblems(header.schema, headerValue(text, header.schema)))
        found('header', `header ${name}: ${JSON.stringify(text)} ${error}`);
    }

    const content = (declared.definition.content ?? {}) as Record<string, JsonObject>;
    if (response.text === undefined) return problems;
    if (Object.keys(content).length === 0) {
      if (response.text !== '') found('body', `the ${response.status} response declares no body but has one`);
      return problems;
    }
    const mediaType = mediaTypeOf(response.headers);
    const media = mediaType === undefined ? undefined : declaredMedia(content, mediaType);
    if (mediaType === undefined || media === undefined) {
      const declaredTypes = Object.keys(content).join(', ');
      found(
        'content-type',
        `Content-Type ${mediaType ?? '(none)'} is not declared for ${response.status} (declared: ${declaredTypes})`,
      );
      return problems;
    }
    const schema = resolveRef<JsonObject>(contract.document, media).schema as JsonSchema | undefined;
    if (schema === undefined || !isJsonMediaType(mediaType)) return problems;
    const body = parsedJson(response.text);
    if (body === NOT_JSON) found('body', notJson(response.text));
    else for (const error of schemaProblems(schema, body)) found('body', `body ${error}`);
    return problems;
  };

  return {
    judge,
    problems: (operationId, response) => judge(operationId, response).map(({ message }) => message),

    errorBodyProblems(response) {
      const problems: string[] = [];
      if (mediaTypeOf(response.headers) !== 'application/json')
        problems.push(`Content-Type is ${response.headers.get('Content-Type') ?? '(none)'}, not application/json`);
      const text = response.text ?? '';
      const body = parsedJson(text);
      if (body === NOT_JSON) return [...problems, notJson(text)];
      errorSchema ??= resolveRef<JsonSchema>(contract.document, { $ref: '#/components/schemas/Error' });
      for (const error of schemaProblems(errorSchema, body)) problems.push(`Error body ${error}`);
      const status = (body as { status?: unknown } | null)?.status;
      if (status !== response.status)
        problems.push(`Error body status ${JSON.stringify(status)} differs from the HTTP status ${response.status}`);
      return problems;
    },
  };
}

const NOT_JSON = Symbol('not JSON');

function parsedJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return NOT_JSON;
  }
}

const notJson = (text: string) => `the body is not JSON: ${JSON.stringify(text.slice(0, 200))}`;

/** Header values are text; a header whose schema is an integer is read as one only when written as one. */
function headerValue(text: string, schema: JsonSchema): unknown {
  const { type } = schema;
  if ((type === 'integer' || type === 'number') && /^-?(0|[1-9][0-9]*)$/.test(text)) return Number(text);
  return text;
}
