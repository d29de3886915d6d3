// The scenarios file the mock servers read at start (the browser mocks embed it when built).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { load } from 'js-yaml';
import type { Contract } from '../../contract/contract.ts';
import { UsageError } from '../../core/errors.ts';
import { readScenarios, type Scenarios } from '../app/scenarios.ts';

export const SCENARIOS_FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'scenarios.yaml');

/** The scenarios of `file`, checked against `contract`; throws UsageError on the first problem. */
export function loadScenarios(contract: Contract, file = SCENARIOS_FILE): Scenarios {
  const where = path.relative(process.cwd(), file) || file;
  let data: unknown;
  try {
    data = load(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new UsageError(`${where}: ${error instanceof Error ? error.message : String(error)}`);
  }
  return readScenarios(contract, data, where);
}
