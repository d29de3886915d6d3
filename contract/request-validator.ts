// The one request validator: compiled once per contract from its schemas, so they exist only in
// openapi/, and used by the server and by the mock alike. It reports every problem of a request.
import type { ValidateFunction } from 'ajv/dist/2020.js';
import type { Contract, ContractOperation, ContractParameter } from './contract.ts';
import { oncePer, resolveRef } from './document.ts';
import { fromSchemaError, joinField, problem, type RequestLocation, type RequestProblem } from './problems.ts';
import { type SchemaCompiler, schemaCompiler } from './schemas.ts';

/** A request as it arrives: query values can repeat, path values cannot; the body already parsed as JSON. */
interface RawRequest {
  query: Record<string, string | string[] | undefined>;
  path: Record<string, string | undefined>;
  /** Ignored unless the operation takes a body. */
  body?: unknown;
  /** The media type the body was sent as (one the operation declares); its preferred one when absent. */
  mediaType?: string;
}

/** The request's values as the operation's schemas describe them, with the contract's defaults filled in. */
export interface RequestInput {
  query: Record<string, unknown>;
  path: Record<string, unknown>;
  body: unknown;
}

/** At least one problem, in the contract's order. */
export type RequestProblems = [RequestProblem, ...RequestProblem[]];

type Validation = { valid: true; input: RequestInput } | { valid: false; problems: RequestProblems };

export interface RequestValidator {
  validate(operationId: string, request: RawRequest): Validation;
}

type ParameterLocation = Extract<RequestLocation, 'query' | 'path'>;

interface CompiledParameters {
  parameters: ContractParameter[];
  validate: ValidateFunction;
}

interface CompiledOperation {
  query: CompiledParameters;
  path: CompiledParameters;
  /** The body's validator for each media type the operation declares, the preferred one first. */
  bodies: Map<string, ValidateFunction>;
  /** Where a problem stands in the order of the contract, by `in` and name. */
  rank(problem: RequestProblem): number;
}

/** The contract's validator, compiled on first use and then kept with the contract. */
export const requestValidator: (contract: Contract) => RequestValidator = oncePer(compile);

function compile(contract: Contract): RequestValidator {
  const schemas = schemaCompiler(contract.document, { fillDefaults: true });
  const operations = new Map<string, ContractOperation>(
    contract.operations.map((operation) => [operation.operationId, operation]),
  );
  // Each operation's validators are compiled at its first request: a process keeps in memory the
  // code of the operations it serves, not of every one the contract has.
  const compiled = new Map<string, CompiledOperation>();
  const compiledOf = (operationId: string): CompiledOperation => {
    let operation = compiled.get(operationId);
    if (!operation) {
      const declared = operations.get(operationId);
      if (!declared) throw new Error(`The contract has no operation ${operationId}`);
      operation = compileOperation(schemas, contract, declared);
      compiled.set(operationId, operation);
    }
    return operation;
  };
  return {
    validate(operationId, request) {
      const operation = compiledOf(operationId);
      const problems: RequestProblem[] = [];
      const input: RequestInput = {
        query: checkParameters('query', operation.query, request.query, problems),
        path: checkParameters('path', operation.path, request.path, problems),
        body: bodyInput(operation.bodies, request, problems),
      };
      const [first, ...rest] = inContractOrder(problems, operation.rank);
      return first ? { valid: false, problems: [first, ...rest] } : { valid: true, input };
    },
  };
}

function compileOperation(
  schemas: SchemaCompiler,
  contract: Contract,
  operation: ContractOperation,
): CompiledOperation {
  const compileLocation = (location: ParameterLocation): CompiledParameters => {
    const parameters = operation.parameters.filter((parameter) => parameter.in === location);
    const properties = Object.fromEntries(
      // Ajv fills in a default only where the property itself writes it, not behind a `$ref`.
      parameters.map(({ name, schema }) => [
        name,
        { $ref: schemas.ref(schema), ...('default' in schema && { default: schema.default }) },
      ]),
    );
    const required = parameters.filter((parameter) => parameter.required).map((parameter) => parameter.name);
    return { parameters, validate: schemas.compile({ type: 'object', properties, required }) };
  };
  const bodySchema =
    operation.bodySchema && resolveRef<{ properties?: object }>(contract.document, operation.bodySchema);
  const bodyFields = Object.keys(bodySchema?.properties ?? {});
  const parameterCount = operation.parameters.length;
  return {
    query: compileLocation('query'),
    path: compileLocation('path'),
    bodies: new Map(
      (operation.bodies ?? []).map(({ mediaType, schema }) => [
        mediaType,
        schemas.compile({ $ref: schemas.ref(schema) }),
      ]),
    ),
    rank(found) {
      if (found.in !== 'body') {
        return operation.parameters.findIndex(
          (parameter) => parameter.in === found.in && parameter.name === found.name,
        );
      }
      // A field the schema does not declare (position -1) is usually a misspelling of one reported
      // missing, so it comes first, as does a problem with the body as a whole.
      const field = found.name.replace(/[.[].*/s, ''); // up to its first `.` or `[`
      return parameterCount + 1 + bodyFields.indexOf(field);
    },
  };
}

function checkParameters(
  location: ParameterLocation,
  { parameters, validate }: CompiledParameters,
  raw: RawRequest['query'],
  problems: RequestProblem[],
): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const parameter of parameters) {
    const value = raw[parameter.name];
    if (value === undefined) continue;
    const converted = fromString(parameter, value);
    if (typeof converted === 'object') problems.push(problem(location, parameter.name, converted.complaint));
    else values[parameter.name] = converted;
  }
  if (!validate(values)) problems.push(...(validate.errors ?? []).map((error) => fromSchemaError(error, location)));
  return values;
}

/** The body, checked against the schema of the media type it was sent as; undefined where the operation takes none. */
function bodyInput(bodies: Map<string, ValidateFunction>, request: RawRequest, problems: RequestProblem[]): unknown {
  const [preferred] = bodies.values();
  if (preferred === undefined) return undefined;
  const validate = (request.mediaType === undefined ? undefined : bodies.get(request.mediaType)) ?? preferred;
  return checkBody(validate, request.body, problems);
}

function checkBody(validate: ValidateFunction, body: unknown, problems: RequestProblem[]): unknown {
  if (!validate(body)) problems.push(...(validate.errors ?? []).map((error) => fromSchemaError(error, 'body')));
  problems.push(...unpairedSurrogates(body));
  return body;
}

/**
 * Query and path values arrive as text. An integer must be written canonically (`42`, not `042`,
 * `+42` or `42.0`) so that one value has one spelling; a number as JSON writes one (`4.2`, `1e3`);
 * the schema then checks its range.
 */
function fromString(
  parameter: ContractParameter,
  raw: string | string[],
): string | number | boolean | { complaint: string } {
  if (Array.isArray(raw)) {
    const [only, ...others] = raw;
    if (only === undefined || others.length > 0) return { complaint: 'must be given at most once' };
    raw = only;
  }
  switch (parameter.resolvedSchema.type) {
    case 'integer':
      if (!/^(0|-?[1-9][0-9]*)$/.test(raw)) {
        return {
          complaint: `must be a whole number written in plain decimal digits (like \`42\`); got \`${truncate(raw)}\``,
        };
      }
      return Number(raw);
    case 'number':
      if (!/^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$/.test(raw)) {
        return { complaint: `must be a number written in decimal digits (like \`4.2\`); got \`${truncate(raw)}\`` };
      }
      return Number(raw);
    case 'boolean':
      if (raw !== 'true' && raw !== 'false') return { complaint: 'must be `true` or `false`' };
      return raw === 'true';
    default:
      return raw;
  }
}

const UNPAIRED_SURROGATE = /\p{Cs}/u;

/**
 * JSON can escape half of a UTF-16 pair (`"\ud800"`): valid JSON, but no character, so such a
 * string can be neither checked as code points nor stored exactly as sent. Walked without
 * recursion, and a field named only when it is at fault: a body of 16 KiB can nest thousands of
 * levels deep.
 */
function unpairedSurrogates(body: unknown): RequestProblem[] {
  /** The body, or a value inside it with its parent and its key there: a property name or an array index. */
  type Visit =
    | { value: unknown; parent?: undefined; key?: undefined }
    | { value: unknown; parent: Visit; key: string | number };
  const fieldOf = (visit: Visit): string => {
    const keys: Array<string | number> = [];
    for (let at = visit; at.parent; at = at.parent) keys.push(at.key);
    return keys
      .reverse()
      .reduce<string>((field, key) => (typeof key === 'number' ? `${field}[${key}]` : joinField(field, key)), '');
  };
  const problems: RequestProblem[] = [];
  const pending: Visit[] = [{ value: body }];
  for (let visit = pending.pop(); visit; visit = pending.pop()) {
    const { value } = visit;
    if (typeof value === 'string' && UNPAIRED_SURROGATE.test(value)) {
      problems.push(
        problem('body', fieldOf(visit), 'contains an unpaired UTF-16 surrogate escape, which is not a character'),
      );
    } else if (typeof value === 'object' && value !== null) {
      const keyOf = (key: string) => (Array.isArray(value) ? Number(key) : key);
      const children = Object.entries(value).map(
        ([key, item]): Visit => ({ value: item, parent: visit, key: keyOf(key) }),
      );
      pending.push(...children.reverse());
    }
  }
  return problems;
}

/**
 * One problem per parameter or field (the first found), none inside a field already at fault
 * (the parts of an unknown field, say), unknown fields first, then in the contract's order.
 */
function inContractOrder(problems: RequestProblem[], rank: (problem: RequestProblem) => number): RequestProblem[] {
  const named = new Set(problems.map((found) => `${found.in} ${found.name}`));
  const insideAnother = (found: RequestProblem) =>
    found.name !== '' && enclosingFields(found.name).some((field) => named.has(`${found.in} ${field}`));
  const seen = new Set<string>();
  const once = problems.filter((found) => {
    const key = `${found.in} ${found.name}`;
    if (seen.has(key) || insideAnother(found)) return false;
    seen.add(key);
    return true;
  });
  return once
    .map((found, index) => ({ found, index, rank: rank(found) }))
    .sort((a, b) => a.rank - b.rank || a.index - b.index)
    .map(({ found }) => found);
}

/** The fields that hold `field`, outermost first: `''` (the body), `a` and `a.b` for `a.b[0]`. */
function enclosingFields(field: string): string[] {
  return ['', ...[...field.matchAll(/[.[]/g)].map((match) => field.slice(0, match.index))].filter(
    (enclosing) => enclosing !== field,
  );
}

function truncate(value: string): string {
  return value.length > 40 ? `${value.slice(0, 40)}…` : value;
}
