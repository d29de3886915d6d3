// `npm run diff [-- --base <release or file>]`: the working contract against the latest release
// (or the base given), one line per change; exit 1 on a breaking change the version does not allow.
import type { ContractLocations } from '../pipeline/locations.ts';
import { type GateOptions, runGate } from './gate.ts';
import { readBase } from './releases.ts';
import { changeLine, sortJudgements, summaryLine } from './report.ts';
import { sourceLocator } from './source-lines.ts';
import { buildWorkingContract } from './working.ts';

export interface DiffOptions extends GateOptions {
  base?: string;
  print?: (line: string) => void;
  printError?: (line: string) => void;
}

/** Prints the report; resolves to the exit status. */
export async function runDiff(locations: ContractLocations, options: DiffOptions = {}): Promise<number> {
  const { print = console.log, printError = console.error } = options;
  const working = await buildWorkingContract(locations);
  if (!working.ok) {
    printError(`diff: ${working.problem}`);
    return 1;
  }
  let base: Awaited<ReturnType<typeof readBase>>;
  let result: ReturnType<typeof runGate>;
  try {
    base = await readBase(locations, options.base);
    result = runGate(base.document, working.document, options);
  } catch (error) {
    printError(`diff: ${error instanceof Error ? error.message : String(error)}`);
    return 2;
  }
  print(
    `openapi/ (version ${working.document.info.version}) against ${base.label} (version ${base.document.info.version}):`,
  );
  const sourceOf = sourceLocator(locations);
  for (const judgement of sortJudgements(result.judgements)) print(changeLine(judgement, sourceOf(judgement.pointer)));
  print(summaryLine(result));
  return result.passed ? 0 : 1;
}
