// Well-formed requests made of the contract's own examples, for the cases about what surrounds an
// operation (keys, limits, the storage, the body's size and type): every operation the contract
// declares gets them without a line written for it.
import type { ParameterObject } from 'openapi-typescript';
import { loadContract } from '../../../contract/bundled.ts';
import type { OperationId } from '../../../contract/contract.ts';
import {
  jsonContent,
  namedExamples,
  operation,
  protectedOperations,
  requestBody,
  resolve,
} from '../contract-document.ts';
import { defined } from '../defined.ts';
import type { ApiRequest } from './client.ts';

/** The operations behind the API key, by operationId. */
export const protectedOperationIds: OperationId[] = protectedOperations.map(
  ({ operationId }) => operationId as OperationId,
);

/**
 * The operations that take a JSON body, each with the largest body it reads (`x-max-body-bytes`)
 * and the media type it is sent as (`application/json`, `application/merge-patch+json`).
 */
export const bodyOperations = loadContract()
  .operations.filter((candidate) => candidate.maxBodyBytes !== undefined)
  .map(({ operationId, maxBodyBytes, bodyMediaType }) => ({
    operationId,
    maxBodyBytes: defined(maxBodyBytes, 'a body limit'),
    mediaType: defined(bodyMediaType, `the media type of ${operationId}'s body`),
  }));

/**
 * `operationId` called with its parameters' examples (required query parameters too) and its
 * request body's first named example, sent as the media type the contract declares for it.
 */
export function exampleRequest(operationId: OperationId): ApiRequest {
  const { method, path, operation: definition } = operation(operationId);
  const parameters = (definition.parameters ?? []).map((parameter) => resolve<ParameterObject>(parameter));
  const exampleOf = (parameter: ParameterObject) =>
    String(
      defined(
        parameter.example ?? (resolve(parameter.schema ?? {}) as { examples?: unknown[] }).examples?.[0],
        `an example of ${operationId}'s ${parameter.in} parameter ${parameter.name}`,
      ),
    );
  const query = Object.fromEntries(
    parameters.filter((parameter) => parameter.in === 'query' && parameter.required).map((p) => [p.name, exampleOf(p)]),
  );
  const body = requestBody(operationId);
  const mediaType = loadContract().operation(operationId).bodyMediaType;
  return {
    method,
    path: path.replace(/\{([^}]+)\}/g, (_, name: string) =>
      exampleOf(
        defined(
          parameters.find((parameter) => parameter.name === name),
          `path parameter ${name}`,
        ),
      ),
    ),
    ...(Object.keys(query).length > 0 && { query }),
    ...(body && { json: defined(namedExamples(jsonContent(body))[0], `an example body of ${operationId}`)[1].value }),
    ...(mediaType && { headers: { 'Content-Type': mediaType } }),
  };
}
