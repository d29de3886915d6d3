// The one reader of the bundled contract (generated/openapi.json) and its one request validator.
// Server, mock, scripts and tests read the contract only through this module.
export {
  Contract,
  loadContract,
  type ContractHeader,
  type ContractOperation,
  type ContractParameter,
  type ContractPath,
  type ContractResponse,
  type OperationId,
  type PathMatch,
} from './contract.ts';
export type { Deprecation } from './deprecation.ts';
export {
  fixedLimits,
  rateLimitRules,
  type BanRules,
  type PlanLimits,
  type RateLimitRules,
  type WindowLimits,
} from './rate-limit-rules.ts';
export { operationObjects, readDocument, resolveRef, type JsonObject, type JsonSchema, type OpenApiDocument } from './document.ts';
export type { RequestLocation, RequestProblem } from './problems.ts';
export {
  requestValidator,
  type RawRequest,
  type RequestInput,
  type RequestProblems,
  type RequestValidator,
  type Validation,
} from './request-validator.ts';
export { schemaCompiler, type SchemaCompiler } from './schemas.ts';
