// A deprecated operation, as the contract describes it: its removal date (`x-sunset`), the
// operation that replaces it (`x-successor`), and the headers every response of it carries.
import type { ContractOperation } from './contract.ts';

export interface Deprecation {
  /** Headers every response of the operation declares with one `const` value (`Deprecation`, `Sunset`, `Link`). */
  headers: Record<string, string>;
  /** The instant (ms) from which the operation is gone. */
  sunsetAt: number;
  /** `x-sunset` as written, `YYYY-MM-DD`. */
  sunsetDate: string;
  /** The path of the operation that replaces it (`/v1/pets`), when `x-successor` names one. */
  successor?: string;
}

export function readDeprecation(
  operation: ContractOperation,
  servedPathOf: (operationId: string) => string,
): Deprecation {
  const { definition } = operation;
  const sunsetDate = definition['x-sunset'];
  if (typeof sunsetDate !== 'string') throw new Error(`Deprecated operation ${operation.operationId} lacks x-sunset`);
  const successor = definition['x-successor'];
  return {
    headers: constantsOnEveryResponse(operation),
    sunsetAt: sunsetInstant(sunsetDate),
    sunsetDate,
    ...(typeof successor === 'string' && { successor: servedPathOf(successor) }),
  };
}

/** The instant (ms) an `x-sunset` date (`YYYY-MM-DD`) names: its first moment, in UTC. */
export function sunsetInstant(sunsetDate: string): number {
  return Date.parse(`${sunsetDate}T00:00:00Z`);
}

/** The deprecation of an operation the caller knows to be deprecated; an error for any other. */
export function deprecationOf(operation: ContractOperation): Deprecation {
  const { deprecation } = operation;
  if (deprecation === undefined) throw new Error(`Operation ${operation.operationId} is not deprecated.`);
  return deprecation;
}

/**
 * A header declared with the same `const` value on every response is one the operation always
 * sends, so the contract is the one place those values are written.
 */
function constantsOnEveryResponse(operation: ContractOperation): Record<string, string> {
  const [first, ...rest] = Object.values(operation.responses);
  const headers: Record<string, string> = {};
  for (const [name, header] of Object.entries(first?.headers ?? {})) {
    const value = header.schema.const;
    if (typeof value === 'string' && rest.every((response) => response.headers[name]?.schema.const === value))
      headers[name] = value;
  }
  return headers;
}
