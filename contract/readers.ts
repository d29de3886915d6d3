// The contract's readers that take any document: what the pipeline needs to read the working copy
// it is building, without loading the bundle in generated/ (which may be stale or missing while it
// runs). Everything else reads the contract through contract/index.ts, which exports these too.
export {
  type JsonObject,
  type OpenApiDocument,
  type OperationObject,
  operationObjects,
  resolveRef,
  type ServerObject,
} from './document.ts';
export { type ErrorCodeEntry, errorCodes } from './error-codes.ts';
export {
  type BanRules,
  fixedLimits,
  maxBodyBytes,
  type RateLimitRules,
  rateLimitRules,
} from './rate-limit-rules.ts';
