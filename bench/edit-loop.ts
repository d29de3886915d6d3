// Part of row 5 of the bench: wall time of a full `npm run generate` (target: under 2 s) and of a
// regeneration by the warm watch loop of `npm run dev:spec` (target: under 1 s), on a throw-away
// copy of the repository (bench/workspace.ts).
import { execFile } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { WatchRegeneration } from '../scripts/pipeline/watch.ts';
import { median } from './support.ts';
import { judged, type Row } from './table.ts';

const FULL_RUN_TARGET_MS = 2000;
const WATCH_TARGET_MS = 1000;
/** A save the watcher never reports would otherwise hang the bench. */
const WATCH_GIVE_UP_MS = 15_000;

export interface EditLoopOptions {
  generateRuns: number;
  watchEdits: number;
  log: (line: string) => void;
}

export async function editLoopRows(workspace: string, options: EditLoopOptions): Promise<Row[]> {
  const walls = await timeGenerate(workspace, options);
  const watch = await timeWatch(workspace, options);
  return [
    judged(
      `npm run generate, median of ${walls.length} runs from an empty generated/`,
      `${seconds(median(walls))} (worst ${seconds(Math.max(...walls))})`,
      `< ${seconds(FULL_RUN_TARGET_MS)}`,
      median(walls) < FULL_RUN_TARGET_MS,
    ),
    judged(
      `watch regeneration (npm run dev:spec), save to outputs written, median of ${watch.length} edits`,
      `${seconds(median(watch))} (worst ${seconds(Math.max(...watch))})`,
      `< ${seconds(WATCH_TARGET_MS)}`,
      median(watch) < WATCH_TARGET_MS,
    ),
  ];
}

async function timeGenerate(workspace: string, { generateRuns, log }: EditLoopOptions): Promise<number[]> {
  const walls: number[] = [];
  let lastOutput = '';
  for (let run = 0; run < generateRuns; run += 1) {
    await rm(path.join(workspace, 'generated'), { recursive: true, force: true });
    const started = performance.now();
    lastOutput = await npmOutput(workspace, ['run', '--silent', 'generate']);
    walls.push(performance.now() - started);
  }
  log(`  npm run generate, wall per run: ${walls.map(seconds).join(', ')}; the last run's steps:`);
  for (const line of lastOutput.trimEnd().split('\n')) log(`    ${line}`);
  return walls;
}

async function timeWatch(workspace: string, { watchEdits, log }: EditLoopOptions): Promise<number[]> {
  // Loaded only here: the pipeline's tools (Redocly, openapi-typescript) take a second to load.
  const [{ contractLocations }, { watchContract }] = await Promise.all([
    import('../scripts/pipeline/locations.ts'),
    import('../scripts/pipeline/watch.ts'),
  ]);
  const schemaFile = path.join(workspace, 'openapi', 'components', 'schemas', 'Pet.yaml');
  const original = await readFile(schemaFile, 'utf8');
  const waiting: Array<(result: WatchRegeneration) => void> = [];
  const watcher = await watchContract({
    locations: contractLocations(workspace),
    onRegenerated: (result) => waiting.shift()?.(result),
  });
  const latencies: number[] = [];
  try {
    for (let edit = 1; edit <= watchEdits; edit += 1) {
      const regenerated = new Promise<WatchRegeneration>((resolve) => waiting.push(resolve));
      const savedAt = performance.now();
      await writeFile(schemaFile, original.replace(/^description: .*$/m, `description: Benchmark edit ${edit}.`));
      const result = await Promise.race([regenerated, timeout(WATCH_GIVE_UP_MS, `edit ${edit} was not regenerated`)]);
      if (!result.ok) throw new Error(`regeneration ${edit} failed: ${JSON.stringify(result.findings)}`);
      latencies.push(performance.now() - savedAt);
      // Let any second event of the same save run out, so it is not taken for the next edit's result.
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
  } finally {
    await watcher.close();
    await writeFile(schemaFile, original);
  }
  log(`  watch loop, ${watchEdits} edits to openapi/components/schemas/Pet.yaml: ${latencies.map(seconds).join(', ')}`);
  return latencies;
}

function timeout(milliseconds: number, what: string): Promise<never> {
  return new Promise((_, reject) => {
    setTimeout(() => reject(new Error(`${what} within ${milliseconds / 1000} s.`)), milliseconds).unref();
  });
}

function npmOutput(cwd: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('npm', args, { cwd }, (error, stdout, stderr) => {
      if (error) reject(new Error(`npm ${args.join(' ')} failed:\n${stdout}${stderr}`));
      else resolve(stdout);
    });
  });
}

export function seconds(milliseconds: number): string {
  return `${(milliseconds / 1000).toFixed(2)} s`;
}
