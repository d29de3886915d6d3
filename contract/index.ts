// The one reader of the bundled contract (generated/openapi.json), its one request validator and
// its one response validator.
// Server, mock, client and tests read the contract only through this module; the pipeline, which
// builds the bundle, through contract/readers.ts.

export {
  type Collection,
  type CollectionField,
  type CollectionRole,
  collectionRoleOf,
  collectionsOf,
  type FieldType,
} from './collections.ts';
export {
  basePathOf,
  Contract,
  type ContractOperation,
  loadContract,
  type OperationId,
} from './contract.ts';
export { deprecationOf, sunsetInstant } from './deprecation.ts';
export {
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENT_REPLAYED_HEADER,
  type IdempotencyRule,
  idempotencyRule,
} from './idempotency.ts';
export type { RequestProblem } from './problems.ts';
export * from './readers.ts';
export {
  type RequestInput,
  type RequestProblems,
  type RequestValidator,
  requestValidator,
} from './request-validator.ts';
export { type ObservedResponse, type ResponseValidator, responseValidator } from './response-validator.ts';
export { schemaCompiler } from './schemas.ts';
