// `npm run generate` as a function of its arguments, its locations and where it prints, so the
// tests can run it in the process that already has Redocly and openapi-typescript loaded.
//   --check  compute everything, write nothing, fail naming every out-of-date file
//   --watch  regenerate on every change under openapi/ or to redocly.yaml (npm run dev:spec)
import { parseArgs } from 'node:util';
import { serviceNeeds } from '../../contract/collections.ts';
import { Contract } from '../../contract/contract.ts';
import type { OpenApiDocument } from '../../contract/document.ts';
import { type Artifact, type BuildResult, buildArtifacts, type StepTiming } from './build.ts';
import { staleClientVersion } from './client-version.ts';
import { type Drift, findDrift, findUnexpected } from './files.ts';
import { formatFinding } from './lint.ts';
import { type ContractLocations, displayPath } from './locations.ts';
import { staleReadmeSections } from './readme-rules.ts';
import { regenerate } from './regenerate.ts';
import { type WatchRegeneration, watchContract } from './watch.ts';

/**
 * Sent after each run of the watch loop (`--watch`) to the program that started it as a child with
 * a channel: whether it wrote generated/, what caused it (files relative to the root; none at
 * start), how long it took, and for a failure the step and each finding as a line to print.
 */
type RegenerationMessage =
  | { ok: true; changed: string[]; ms: number }
  | { ok: false; changed: string[]; ms: number; failedStep: string; findings: string[] };

/** Where the command prints: `console` for the CLI, buffers in the tests. */
export interface CommandOutput {
  log(line: string): void;
  warn(line: string): void;
  error(line: string): void;
}

/**
 * Runs the command and resolves with its exit code; with `--watch` it resolves once watching, and
 * stops on SIGINT.
 */
export async function generateCommand(
  args: string[],
  locations: ContractLocations,
  output: CommandOutput = console,
): Promise<number> {
  const { values: flags } = parseArgs({
    args,
    options: { check: { type: 'boolean', default: false }, watch: { type: 'boolean', default: false } },
  });
  const outDir = displayPath(locations, locations.outDir);

  if (flags.check && flags.watch) {
    output.error('generate: --check and --watch cannot be combined.');
    return 2;
  }
  if (flags.check) return check();
  if (flags.watch) {
    await watch();
    return 0;
  }
  return generate();

  async function generate(): Promise<number> {
    printLine('start', performance.now(), 'Node, tsx, Redocly and openapi-typescript loaded');
    const result = await regenerate(locations);
    printTimings(result.timings);
    if (!result.ok) return reportFailure(result, `${outDir}/ left as it was`);
    const changes = result.written.length === 0 ? 'all files already up to date' : `wrote ${result.written.join(', ')}`;
    printLine('write', result.writeMs, changes);
    // Not a finding: the mocks serve such a contract; the server needs code the contract cannot hold.
    for (const need of serviceNeeds(new Contract(result.document as OpenApiDocument))) output.warn(`note  ${need}`);
    await warnAboutUnexpected(result.artifacts);
    printLine('total', performance.now(), `${outDir}/ is up to date`);
    return 0;
  }

  async function check(): Promise<number> {
    const result = await buildArtifacts(locations);
    if (!result.ok) return reportFailure(result, 'nothing checked');
    const drift = await findDrift(result.artifacts, locations.outDir);
    const staleSections = await staleReadmeSections(locations, result.document);
    for (const section of staleSections) {
      output.error(
        `${displayPath(locations, locations.readme)}'s ${section} does not match the contract: run \`npm run generate\` and commit the result.`,
      );
    }
    const staleClient = await staleClientVersion(locations, result.document);
    if (staleClient !== undefined) {
      output.error(
        `${displayPath(locations, locations.clientManifest)} says version ${staleClient.stated}, not the contract's ${staleClient.expected}: run \`npm run generate\` and commit the result.`,
      );
    }
    if (staleSections.length > 0 || staleClient !== undefined) return 1;
    if (drift.length === 0) {
      output.log(`${outDir}/ is up to date with openapi/ (${result.artifacts.length} files).`);
      return 0;
    }
    for (const item of drift) output.error(describeDrift(item));
    output.error(`${outDir}/ does not match openapi/: run \`npm run generate\` and commit the result.`);
    return 1;
  }

  async function watch(): Promise<void> {
    const source = displayPath(locations, locations.sourceDir);
    const config = displayPath(locations, locations.lintConfig);
    output.log(`watching ${source}/ and ${config}; Ctrl-C to stop`);
    const watcher = await watchContract({ locations, onRegenerated: reportRegeneration });
    const stop = () => {
      void watcher.close().then(() => process.exit(0));
    };
    process.once('SIGINT', stop);
    // Started by a program with a channel to it (the mock's watch mode): it ends with that program.
    process.once('disconnect', stop);
  }

  function reportRegeneration(result: WatchRegeneration): void {
    process.send?.(regenerationMessage(result));
    const clock = new Date().toTimeString().slice(0, 8);
    const cause = result.changed.length === 0 ? 'at start' : `after ${result.changed.join(', ')}`;
    if (!result.ok) {
      reportFailure(result, `kept the last good ${outDir}/`, `[${clock}] ${cause}: `);
      return;
    }
    const changes = result.written.length === 0 ? 'nothing changed' : `wrote ${result.written.join(', ')}`;
    output.log(`[${clock}] regenerated in ${Math.round(result.ms)} ms ${cause}: ${changes}`);
  }

  /** What a program that started the watch loop as its child (the mock) is told of each run. */
  function regenerationMessage(result: WatchRegeneration): RegenerationMessage {
    const { changed, ms } = result;
    if (result.ok) return { ok: true, changed, ms };
    const findings = result.findings.map((finding) => formatFinding(locations, finding));
    return { ok: false, changed, ms, failedStep: result.failedStep, findings };
  }

  function reportFailure(result: Extract<BuildResult, { ok: false }>, consequence: string, prefix = ''): number {
    const problems = result.findings.length === 1 ? '1 problem' : `${result.findings.length} problems`;
    output.error(`${prefix}${result.failedStep} failed with ${problems}; ${consequence}.`);
    for (const finding of result.findings) output.error(`  ${formatFinding(locations, finding)}`);
    return 1;
  }

  async function warnAboutUnexpected(artifacts: Artifact[]): Promise<void> {
    const extra = await findUnexpected(
      artifacts.map((artifact) => artifact.name),
      locations.outDir,
    );
    for (const name of extra) {
      output.warn(
        `warning: ${outDir}/${name} is not produced by npm run generate; \`--check\` fails until it is removed.`,
      );
    }
  }

  function describeDrift(item: Drift): string {
    const file = `${outDir}/${item.name}`;
    switch (item.problem) {
      case 'stale':
        return `${file} is stale`;
      case 'missing':
        return `${file} is missing`;
      case 'unexpected':
        return `${file} is unexpected: npm run generate does not produce it`;
    }
  }

  function printTimings(timings: StepTiming[]): void {
    for (const timing of timings) printLine(timing.step, timing.ms, describeStep(timing.step, locations));
  }

  function describeStep(step: StepTiming['step'], where: ContractLocations): string {
    const contract = displayPath(where, where.contract);
    switch (step) {
      case 'lint':
        return `${contract} with ${displayPath(where, where.lintConfig)}`;
      case 'bundle':
        return `${contract} bundled`;
      case 'types':
        return 'TypeScript types by openapi-typescript';
    }
  }

  function printLine(step: string, ms: number, detail: string): void {
    output.log(`${step.padEnd(6)} ${`${Math.round(ms)} ms`.padStart(8)}  ${detail}`);
  }
}
