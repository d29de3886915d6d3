// The contract's rules for idempotent creates: which operations take an `Idempotency-Key` header,
// the schema its value must match, and how long the service keeps an answer (`x-retention-hours`
// beside the parameter).
import type { Contract, ContractOperation } from './contract.ts';
import { type JsonObject, oncePer, resolveRef } from './document.ts';
import { schemaComplaint } from './problems.ts';
import { schemaCompiler } from './schemas.ts';

/** The header that makes a create safe to retry, as the contract spells it. */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
/** The header that marks a replayed answer, as the contract spells it. */
export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed';

export interface IdempotencyRule {
  /** What is wrong with a key, as "must ..." words after the header's name; undefined for a valid key. */
  complaintAbout(key: string): string | undefined;
  /** How long an answer is kept and replayed, in milliseconds. */
  retentionMs: number;
}

/** One compiler per contract: compiling the document is the costly part, done once per process. */
const compilerOf = oncePer((contract: Contract) => schemaCompiler(contract.document));

/** The operation's rule when it declares an `Idempotency-Key` header; undefined otherwise. */
export function idempotencyRule(contract: Contract, operation: ContractOperation): IdempotencyRule | undefined {
  const declared = ((operation.definition.parameters as unknown[] | undefined) ?? [])
    .map((node) => resolveRef<JsonObject>(contract.document, node as JsonObject))
    .find((parameter) => parameter.in === 'header' && parameter.name === IDEMPOTENCY_KEY_HEADER);
  if (!declared) return undefined;
  const hours = declared['x-retention-hours'];
  if (typeof hours !== 'number' || !Number.isInteger(hours) || hours < 1) {
    throw new Error(
      `${operation.operationId} declares ${IDEMPOTENCY_KEY_HEADER} without a positive whole x-retention-hours.`,
    );
  }
  const compiler = compilerOf(contract);
  const valid = compiler.compile(declared.schema as object);
  return {
    complaintAbout(key) {
      if (valid(key)) return undefined;
      const [first] = valid.errors ?? [];
      return first ? schemaComplaint(first).complaint : 'is invalid';
    },
    retentionMs: hours * 3_600_000,
  };
}
