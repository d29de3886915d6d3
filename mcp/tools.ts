// The contract's operations as MCP tools, read from the contract when the server starts: one tool
// per operationId, its arguments the operation's path and query parameters and its body, its
// answer's schema the success response's, its hints the HTTP method's. A new operation in the
// contract is a new tool after `npm run generate`, with nothing written here.
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Contract, ContractOperation, ContractParameter } from '../contract/contract.ts';
import { dereferenced, type JsonObject, resolveRef } from '../contract/document.ts';
import { IDEMPOTENCY_KEY_HEADER } from '../contract/idempotency.ts';

/** The argument that carries the request body, beside the parameters named as the contract names them. */
export const BODY_ARGUMENT = 'body';

/** The parameters a tool takes as arguments: a header (`If-Match`, `Idempotency-Key`) is the client's to send. */
const ARGUMENT_LOCATIONS: ReadonlyArray<ContractParameter['in']> = ['path', 'query'];

/** Methods that change nothing, and those that change nothing more when repeated (RFC 9110, 9.2). */
const SAFE_METHODS = new Set(['GET', 'HEAD']);
const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'PUT', 'DELETE']);

export interface OperationTool {
  tool: Tool;
  operation: ContractOperation;
  /** The path and query parameters, by name: what each argument but the body is. */
  parameters: ReadonlyMap<string, ContractParameter>;
}

/** A tool per operation of `contract`; only the ones that change nothing when `readOnly`. */
export function operationTools(contract: Contract, { readOnly = false } = {}): OperationTool[] {
  return contract.operations
    .filter((operation) => !readOnly || SAFE_METHODS.has(operation.method))
    .map((operation) => {
      const parameters = new Map(
        operation.parameters
          .filter((parameter) => ARGUMENT_LOCATIONS.includes(parameter.in))
          .map((parameter) => [parameter.name, parameter]),
      );
      if (parameters.has(BODY_ARGUMENT) && operation.bodySchema)
        throw new Error(`${operation.operationId} has a parameter named ${BODY_ARGUMENT}, the argument of its body.`);
      const outputSchema = successSchema(contract, operation);
      const title = operation.definition.summary;
      return {
        operation,
        parameters,
        tool: {
          name: operation.operationId,
          ...(typeof title === 'string' && { title }),
          description: description(operation),
          inputSchema: inputSchema(contract, operation, [...parameters.values()]),
          ...(outputSchema && { outputSchema }),
          annotations: hints(operation),
        },
      };
    });
}

function description({ definition, deprecation }: ContractOperation): string {
  const parts = [typeof definition.description === 'string' ? definition.description.trim() : ''];
  if (typeof definition['x-stability'] === 'string') parts.push(`Stability: ${definition['x-stability']}.`);
  if (deprecation) {
    const successor = definition['x-successor'];
    parts.push(
      `Deprecated: removed on ${deprecation.sunsetDate}${typeof successor === 'string' ? `; use the tool ${successor} instead` : ''}.`,
    );
  }
  return parts.filter(Boolean).join('\n\n');
}

function inputSchema(
  contract: Contract,
  operation: ContractOperation,
  parameters: ContractParameter[],
): Tool['inputSchema'] {
  const properties: Record<string, object> = {};
  const required: string[] = [];
  for (const parameter of parameters) {
    const schema = dereferenced(contract.document, parameter.schema) as JsonObject;
    properties[parameter.name] = { ...schema, ...(parameter.description && { description: parameter.description }) };
    if (parameter.required) required.push(parameter.name);
  }
  if (operation.bodySchema) {
    const requestBody = resolveRef<JsonObject>(contract.document, operation.definition.requestBody);
    const schema = dereferenced(contract.document, operation.bodySchema) as JsonObject;
    properties[BODY_ARGUMENT] = {
      ...schema,
      ...(typeof requestBody.description === 'string' && { description: requestBody.description }),
    };
    if (requestBody.required === true) required.push(BODY_ARGUMENT);
  }
  return { type: 'object', properties, ...(required.length > 0 && { required }), additionalProperties: false };
}

/**
 * The schema of the success answers' JSON bodies, where each is an object (MCP's structured
 * content is one): one schema, or any of several.
 */
function successSchema(contract: Contract, operation: ContractOperation): Tool['outputSchema'] {
  const schemas = Object.entries(operation.responses)
    .filter(([status]) => status.startsWith('2'))
    .flatMap(([, response]) => {
      const content = (response.definition.content as Record<string, { schema?: unknown }> | undefined) ?? {};
      const schema = content['application/json']?.schema;
      return schema === undefined ? [] : [dereferenced(contract.document, schema) as JsonObject];
    });
  const [only, ...others] = schemas;
  if (only === undefined || schemas.some((schema) => schema.type !== 'object')) return undefined;
  return others.length === 0 ? (only as Tool['outputSchema']) : { type: 'object', anyOf: schemas };
}

function hints(operation: ContractOperation): NonNullable<Tool['annotations']> {
  const readOnly = SAFE_METHODS.has(operation.method);
  // Every create the tool sends carries an Idempotency-Key, which the service answers once.
  const keyedCreate =
    operation.method === 'POST' &&
    operation.parameters.some((parameter) => parameter.in === 'header' && parameter.name === IDEMPOTENCY_KEY_HEADER);
  return {
    readOnlyHint: readOnly,
    destructiveHint: operation.method === 'DELETE',
    idempotentHint: IDEMPOTENT_METHODS.has(operation.method) || keyedCreate,
  };
}
