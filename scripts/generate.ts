// `npm run generate`: lint, bundle and type the contract into generated/.
//   --check  compute everything, write nothing, fail naming every out-of-date file
//   --watch  regenerate on every change under openapi/ or to redocly.yaml (npm run dev:spec)
import { parseArgs } from 'node:util';
import {
  type Artifact,
  type BuildResult,
  buildArtifacts,
  type ContractLocations,
  contractLocations,
  type Drift,
  displayPath,
  findDrift,
  findUnexpected,
  formatFinding,
  regenerate,
  type StepTiming,
  staleReadmeSections,
  type WatchRegeneration,
  watchContract,
} from './pipeline.ts';

const { values: flags } = parseArgs({
  options: { check: { type: 'boolean', default: false }, watch: { type: 'boolean', default: false } },
});
const locations = contractLocations();
const outDir = displayPath(locations, locations.outDir);

if (flags.check && flags.watch) {
  console.error('generate: --check and --watch cannot be combined.');
  process.exitCode = 2;
} else if (flags.check) {
  process.exitCode = await check();
} else if (flags.watch) {
  await watch();
} else {
  process.exitCode = await generate();
}

async function generate(): Promise<number> {
  printLine('start', performance.now(), 'Node, tsx, Redocly and openapi-typescript loaded');
  const result = await regenerate(locations);
  printTimings(result.timings);
  if (!result.ok) return reportFailure(result, `${outDir}/ left as it was`);
  const changes = result.written.length === 0 ? 'all files already up to date' : `wrote ${result.written.join(', ')}`;
  printLine('write', result.writeMs, changes);
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
    console.error(
      `${displayPath(locations, locations.readme)}'s ${section} does not match the contract: run \`npm run generate\` and commit the result.`,
    );
  }
  if (staleSections.length > 0) return 1;
  if (drift.length === 0) {
    console.log(`${outDir}/ is up to date with openapi/ (${result.artifacts.length} files).`);
    return 0;
  }
  for (const item of drift) console.error(describeDrift(item));
  console.error(`${outDir}/ does not match openapi/: run \`npm run generate\` and commit the result.`);
  return 1;
}

async function watch(): Promise<void> {
  const source = displayPath(locations, locations.sourceDir);
  const config = displayPath(locations, locations.lintConfig);
  console.log(`watching ${source}/ and ${config}; Ctrl-C to stop`);
  const watcher = await watchContract({ locations, onRegenerated: reportRegeneration });
  process.once('SIGINT', () => {
    void watcher.close().then(() => process.exit(0));
  });
}

function reportRegeneration(result: WatchRegeneration): void {
  const clock = new Date().toTimeString().slice(0, 8);
  const cause = result.changed.length === 0 ? 'at start' : `after ${result.changed.join(', ')}`;
  if (!result.ok) {
    reportFailure(result, `kept the last good ${outDir}/`, `[${clock}] ${cause}: `);
    return;
  }
  const changes = result.written.length === 0 ? 'nothing changed' : `wrote ${result.written.join(', ')}`;
  console.log(`[${clock}] regenerated in ${Math.round(result.ms)} ms ${cause}: ${changes}`);
}

function reportFailure(result: Extract<BuildResult, { ok: false }>, consequence: string, prefix = ''): number {
  const problems = result.findings.length === 1 ? '1 problem' : `${result.findings.length} problems`;
  console.error(`${prefix}${result.failedStep} failed with ${problems}; ${consequence}.`);
  for (const finding of result.findings) console.error(`  ${formatFinding(locations, finding)}`);
  return 1;
}

async function warnAboutUnexpected(artifacts: Artifact[]): Promise<void> {
  const extra = await findUnexpected(
    artifacts.map((artifact) => artifact.name),
    locations.outDir,
  );
  for (const name of extra) {
    console.warn(
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
  console.log(`${step.padEnd(6)} ${`${Math.round(ms)} ms`.padStart(8)}  ${detail}`);
}
