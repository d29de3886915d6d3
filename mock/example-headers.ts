// Header values for a response the mock writes itself, from the contract's own examples.
import type { Contract, ContractHeader, ContractOperation } from '../contract/index.ts';

/**
 * The example values of the headers the operation declares for `status`, or else of the headers
 * every response of the contract declares (the rate-limit headers), so that no answer lacks them.
 */
export function exampleHeaders(
  contract: Contract,
  operation: ContractOperation | undefined,
  status: number,
): Record<string, string> {
  const declared = operation?.responses[String(status)];
  if (declared) return exampleValues(declared.headers);
  const [first, ...rest] = contract.operations.flatMap((candidate) => Object.values(candidate.responses));
  const shared = Object.entries(first?.headers ?? {}).filter(([name]) =>
    rest.every((response) => name in response.headers),
  );
  return exampleValues(Object.fromEntries(shared));
}

function exampleValues(headers: Record<string, ContractHeader>): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [name, header] of Object.entries(headers)) {
    if (header.example !== undefined) values[name] = String(header.example);
  }
  return values;
}
