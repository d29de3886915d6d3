// The one reader of the bundled contract (generated/openapi.json) and its one request validator.
// Server, mock, scripts and tests read the contract only through this module.

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
  type ContractHeader,
  type ContractOperation,
  type ContractParameter,
  type ContractPath,
  type ContractResponse,
  loadContract,
  type OperationId,
  type PathMatch,
} from './contract.ts';
export { type Deprecation, deprecationOf, sunsetInstant } from './deprecation.ts';
export {
  type JsonObject,
  type JsonSchema,
  type OpenApiDocument,
  operationObjects,
  resolveRef,
} from './document.ts';
export { type ErrorCodeEntry, type ErrorCodeRule, errorCodes } from './error-codes.ts';
export {
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENT_REPLAYED_HEADER,
  type IdempotencyRule,
  idempotencyRule,
} from './idempotency.ts';
export type { RequestLocation, RequestProblem } from './problems.ts';
export {
  type BanRules,
  fixedLimits,
  type PlanLimits,
  type RateLimitRules,
  rateLimitRules,
  type WindowLimits,
} from './rate-limit-rules.ts';
export {
  type RawRequest,
  type RequestInput,
  type RequestProblems,
  type RequestValidator,
  requestValidator,
  type Validation,
} from './request-validator.ts';
export { type SchemaCompiler, schemaCompiler } from './schemas.ts';
