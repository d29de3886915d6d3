import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { ApiError } from './errors.ts';
import type { Contract, JsonSchema, OperationSpec, ParameterSpec } from './contract.ts';

// ajv-formats is CommonJS; under NodeNext its default export arrives wrapped.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

const DOCUMENT_ID = 'openapi.json';

/** Raw parameters as they arrive: query values can repeat, path values cannot. */
export type RawParameters = Record<string, string | string[] | undefined>;

export interface ValidatedInput {
  query: Record<string, unknown>;
  path: Record<string, unknown>;
  body: unknown;
}

export interface OperationValidator {
  parameters(location: 'query' | 'path', raw: RawParameters): Record<string, unknown>;
  /** Validates a parsed JSON body and fills in the contract's defaults. */
  body(value: unknown): unknown;
  readonly takesBody: boolean;
}

const SUBJECT: Record<'query' | 'path' | 'body', string> = {
  query: 'Query parameter',
  path: 'Path parameter',
  body: 'Body field',
};

/**
 * Compiles, once, a validator per operation from the bundled contract, so the schemas exist only
 * in `openapi/`. Ajv fills in the contract's defaults (`limit`, `status`) as it validates.
 */
export function compileValidators(contract: Contract): Map<string, OperationValidator> {
  const ajv = new Ajv2020({ allErrors: true, useDefaults: true, strict: true, verbose: true });
  addFormats(ajv);
  ajv.addVocabulary(['components']);
  ajv.addKeyword({ keyword: 'x-pattern-message', schemaType: 'string' });
  ajv.addSchema({ $id: DOCUMENT_ID, components: { schemas: contract.document.components.schemas } });

  const validators = new Map<string, OperationValidator>();
  for (const operation of contract.operations) {
    validators.set(operation.operationId, operationValidator(ajv, operation));
  }
  return validators;
}

function operationValidator(ajv: Ajv2020, operation: OperationSpec): OperationValidator {
  const compileLocation = (location: 'query' | 'path') => {
    const parameters = operation.parameters.filter((parameter) => parameter.in === location);
    const schema = {
      type: 'object',
      properties: Object.fromEntries(parameters.map((parameter) => [parameter.name, toDocumentRefs(parameter.schema)])),
      required: parameters.filter((parameter) => parameter.required).map((parameter) => parameter.name),
    };
    return { parameters, validate: ajv.compile(schema) };
  };
  const query = compileLocation('query');
  const path = compileLocation('path');
  const body = operation.bodySchema ? ajv.compile(toDocumentRefs(operation.bodySchema)) : undefined;

  return {
    takesBody: body !== undefined,
    parameters(location, raw) {
      const { parameters, validate } = location === 'query' ? query : path;
      const values: Record<string, unknown> = {};
      for (const parameter of parameters) {
        const value = raw[parameter.name];
        if (value !== undefined) values[parameter.name] = fromString(location, parameter, value);
      }
      check(validate, values, location);
      return values;
    },
    body(value) {
      if (!body) return undefined;
      check(body, value, 'body');
      rejectUnpairedSurrogates(value, '');
      return value;
    },
  };
}

function check(validate: ValidateFunction, value: unknown, location: 'query' | 'path' | 'body'): void {
  if (validate(value)) return;
  const errors = validate.errors ?? [];
  // An unknown field is usually a misspelling of the field another error reports as missing,
  // so it is the one to name (with the allowed fields listed).
  const error = errors.find((candidate) => candidate.keyword === 'additionalProperties') ?? errors[0];
  throw new ApiError(400, 'validation_failed', error ? describe(error, location) : 'The request is invalid.');
}

const UNPAIRED_SURROGATE = /\p{Cs}/u;

/**
 * JSON can escape half of a UTF-16 pair (`"\ud800"`): valid JSON, but no character, so such a
 * string can be neither checked as code points nor stored exactly as sent.
 */
function rejectUnpairedSurrogates(value: unknown, field: string): void {
  if (typeof value === 'string') {
    if (UNPAIRED_SURROGATE.test(value)) {
      const subject = field ? `${SUBJECT.body} \`${field}\`` : 'The request body';
      throw new ApiError(400, 'validation_failed', `${subject} contains an unpaired UTF-16 surrogate escape, which is not a character.`);
    }
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      rejectUnpairedSurrogates(item, Array.isArray(value) ? `${field}[${key}]` : joinField(field, key));
    }
  }
}

/**
 * Query and path values arrive as text. A number must be written canonically (`42`, not `042`,
 * `+42` or `42.0`) so that one value has one spelling; the schema then checks its range.
 */
function fromString(location: 'query' | 'path', parameter: ParameterSpec, raw: string | string[]): unknown {
  const subject = `${SUBJECT[location]} \`${parameter.name}\``;
  if (Array.isArray(raw)) {
    if (raw.length !== 1) throw new ApiError(400, 'validation_failed', `${subject} must be given at most once.`);
    raw = raw[0]!;
  }
  switch (parameter.resolvedSchema.type) {
    case 'integer':
      if (!/^(0|-?[1-9][0-9]*)$/.test(raw)) {
        throw new ApiError(400, 'validation_failed', `${subject} must be a whole number written in plain decimal digits (like \`42\`); got \`${truncate(raw)}\`.`);
      }
      return Number(raw);
    case 'boolean':
      if (raw !== 'true' && raw !== 'false') throw new ApiError(400, 'validation_failed', `${subject} must be \`true\` or \`false\`.`);
      return raw === 'true';
    default:
      return raw;
  }
}

function describe(error: ErrorObject, location: 'query' | 'path' | 'body'): string {
  const field = fieldName(error);
  const subject = field ? `${SUBJECT[location]} \`${field}\`` : 'The request body';
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return `${SUBJECT[location]} \`${joinField(field, String(params.missingProperty))}\` is required.`;
    case 'additionalProperties': {
      const allowed = Object.keys((error.parentSchema?.properties as object | undefined) ?? {});
      const name = joinField(field, String(params.additionalProperty));
      return `${SUBJECT[location]} \`${name}\` is not allowed; the allowed fields are ${allowed.map((key) => `\`${key}\``).join(', ')}.`;
    }
    case 'type':
      return `${subject} must be ${article(String(params.type))}.`;
    case 'enum':
      return `${subject} must be one of ${(params.allowedValues as unknown[]).map((value) => `\`${String(value)}\``).join(', ')}.`;
    case 'minimum':
      return `${subject} must be at least ${String(params.limit)}.`;
    case 'maximum':
      return `${subject} must be at most ${String(params.limit)}.`;
    case 'minLength':
      return `${subject} must be at least ${String(params.limit)} character${params.limit === 1 ? '' : 's'} long.`;
    case 'maxLength':
      return `${subject} must be at most ${String(params.limit)} characters long.`;
    case 'pattern': {
      const explanation = error.parentSchema?.['x-pattern-message'];
      return `${subject} ${typeof explanation === 'string' ? explanation : 'does not have the expected format'}.`;
    }
    default:
      return `${subject} ${error.message ?? 'is invalid'}.`;
  }
}

function fieldName(error: ErrorObject): string {
  return error.instancePath
    .split('/')
    .slice(1)
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((segment, index) => (/^\d+$/.test(segment) ? `[${segment}]` : index === 0 ? segment : `.${segment}`))
    .join('');
}

function joinField(parent: string, child: string): string {
  return parent ? `${parent}.${child}` : child;
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

function truncate(value: string): string {
  return value.length > 40 ? `${value.slice(0, 40)}…` : value;
}

/** Points the bundle's local `$ref`s (`#/components/...`) at the document registered with Ajv. */
function toDocumentRefs(schema: JsonSchema): JsonSchema {
  return JSON.parse(JSON.stringify(schema), (key, value: unknown) =>
    key === '$ref' && typeof value === 'string' && value.startsWith('#/') ? `${DOCUMENT_ID}${value}` : value,
  ) as JsonSchema;
}
