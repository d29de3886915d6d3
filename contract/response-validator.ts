// The one response validator, beside the request validator: judges an answer against what the
// contract declares for its operation (the status, the media type, every header and the body), and
// an error answer anywhere against the one Error body. Schemas are compiled where they stand in the
// bundled contract, once per contract. The contract tests and the validating proxy both use it.
import type { ValidateFunction } from 'ajv/dist/2020.js';
import type { Contract } from './contract.ts';
import { type JsonObject, type JsonSchema, resolveRef } from './document.ts';
import { schemaCompiler } from './schemas.ts';

/** An answer as read off the wire, its body already read as text. */
export interface ObservedResponse {
  status: number;
  headers: { get(name: string): string | null };
  /** The body; undefined for an answer to HEAD, which declares the GET's body but never sends one. */
  text?: string;
}

export interface ResponseValidator {
  /** Everything about `response` that the contract's declaration for `operationId` does not allow; empty when it conforms. */
  problems(operationId: string, response: ObservedResponse): string[];
  /** For an error answer, also outside any operation: the one Error body, as JSON, `status` repeating the HTTP status. */
  errorBodyProblems(response: ObservedResponse): string[];
}

const validators = new WeakMap<Contract, ResponseValidator>();

/** The contract's response validator, compiled as schemas are first needed and kept with the contract. */
export function responseValidator(contract: Contract): ResponseValidator {
  const validator = validators.get(contract) ?? createValidator(contract);
  validators.set(contract, validator);
  return validator;
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
  const errorSchema = resolveRef<JsonSchema>(contract.document, { $ref: '#/components/schemas/Error' });

  return {
    problems(operationId, response) {
      const operation = contract.operation(operationId);
      const declared = operation.responses[String(response.status)];
      if (!declared) {
        const statuses = Object.keys(operation.responses).join(', ');
        return [`${operationId} declares no ${response.status} response (it declares ${statuses})`];
      }
      const problems: string[] = [];
      for (const [name, header] of Object.entries(declared.headers)) {
        const text = response.headers.get(name);
        if (text === null) {
          if (header.required) problems.push(`header ${name} is required but missing`);
          continue;
        }
        // A header declared without a schema (`{}` after resolving) allows any value.
        if (Object.keys(header.schema).length === 0) continue;
        for (const error of schemaProblems(header.schema, headerValue(text, header.schema)))
          problems.push(`header ${name}: ${JSON.stringify(text)} ${error}`);
      }

      const content = (declared.definition.content ?? {}) as Record<string, JsonObject>;
      if (response.text === undefined) return problems;
      if (Object.keys(content).length === 0) {
        if (response.text !== '') problems.push(`the ${response.status} response declares no body but has one`);
        return problems;
      }
      const mediaType = mediaTypeOf(response.headers);
      const media = mediaType === undefined ? undefined : content[mediaType];
      if (media === undefined) {
        const declaredTypes = Object.keys(content).join(', ');
        return [
          ...problems,
          `Content-Type ${mediaType ?? '(none)'} is not declared for ${response.status} (declared: ${declaredTypes})`,
        ];
      }
      const schema = resolveRef<JsonObject>(contract.document, media).schema as JsonSchema | undefined;
      if (schema === undefined) return problems;
      const body = parsedJson(response.text);
      if (body === NOT_JSON) return [...problems, notJson(response.text)];
      for (const error of schemaProblems(schema, body)) problems.push(`body ${error}`);
      return problems;
    },

    errorBodyProblems(response) {
      const problems: string[] = [];
      if (mediaTypeOf(response.headers) !== 'application/json')
        problems.push(`Content-Type is ${response.headers.get('Content-Type') ?? '(none)'}, not application/json`);
      const text = response.text ?? '';
      const body = parsedJson(text);
      if (body === NOT_JSON) return [...problems, notJson(text)];
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
