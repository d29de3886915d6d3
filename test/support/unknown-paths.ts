// Paths the contract does not declare, for the tests of 404s: derived from the contract and checked
// against it, so a path it gains later is never mistaken for an unknown one.

import { loadContract } from '../../contract/bundled.ts';
import type { Contract } from '../../contract/contract.ts';

/**
 * Paths relative to the API's base path that no operation serves: a made-up resource, and a
 * made-up part below each declared path (`/pets/1/no-such-part`). Throws if the contract serves one.
 */
export function unknownPaths(contract: Contract = loadContract()): string[] {
  const below = contract.operations
    .filter((operation) => !operation.isPublic)
    .map((operation) => `${operation.path.replace(/\{[^}]+\}/g, '1')}/1/no-such-part`);
  const paths = [...new Set(['/no-such-resource', ...below])];
  for (const path of paths) {
    if (contract.match(contract.basePath + path))
      throw new Error(`The contract serves ${path}; pick another made-up path for the tests of unknown paths.`);
  }
  return paths;
}

/** The methods a contract may declare on a path (HEAD comes with GET). */
const METHODS = ['GET', 'PUT', 'POST', 'DELETE', 'PATCH'];

/**
 * For each served path (`/v1/pets/1`), each method the contract does not declare there, with the
 * methods it does declare, as `Allow` lists them: the tests of 405s, read from the contract, so a
 * method a path gains later is never mistaken for one it lacks.
 */
export function undeclaredMethods(
  paths: readonly string[],
  contract: Contract = loadContract(),
): Array<[method: string, path: string, allowed: string[]]> {
  return paths.flatMap((path) => {
    const allowed = contract.match(path)?.path.allow;
    if (allowed === undefined) throw new Error(`The contract serves no ${path}.`);
    return METHODS.filter((method) => !allowed.includes(method)).map((method): [string, string, string[]] => [
      method,
      path,
      allowed,
    ]);
  });
}
