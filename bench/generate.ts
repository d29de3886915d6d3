// `npm run bench:generate`: wall time of a full `npm run generate` (target: under 2 s) and of a
// regeneration by the warm watch loop of `npm run dev:spec` (target: under 1 s), measured on a
// throw-away copy of the repository so the real generated/ is never touched.
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { contractLocations, type WatchRegeneration, watchContract } from '../scripts/pipeline.ts';

const FULL_RUN_TARGET_MS = 2000;
const WATCH_TARGET_MS = 1000;
const FULL_RUNS = 7;
const WATCH_EDITS = 10;

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const workspace = await mkdtemp(path.join(os.tmpdir(), 'animal-store-bench-'));
try {
  for (const entry of ['openapi', 'redocly.yaml', 'scripts', 'contract', 'package.json', 'generated']) {
    await cp(path.join(repoRoot, entry), path.join(workspace, entry), { recursive: true });
  }
  await symlink(path.join(repoRoot, 'node_modules'), path.join(workspace, 'node_modules'), 'dir');

  console.log(
    `machine: ${os.cpus().length} cores, load average ${os
      .loadavg()
      .map((load) => load.toFixed(2))
      .join(' ')}`,
  );
  const full = await benchFullRuns();
  const watch = await benchWatch();
  console.log(
    `machine: load average ${os
      .loadavg()
      .map((load) => load.toFixed(2))
      .join(' ')} at the end`,
  );
  const missed = [full, watch].filter((verdict) => !verdict);
  process.exitCode = missed.length === 0 ? 0 : 1;
} finally {
  await rm(workspace, { recursive: true, force: true });
}

async function benchFullRuns(): Promise<boolean> {
  console.log(`\nnpm run generate, ${FULL_RUNS} runs each from an empty generated/:`);
  const walls: number[] = [];
  let lastOutput = '';
  for (let run = 0; run < FULL_RUNS; run += 1) {
    await rm(path.join(workspace, 'generated'), { recursive: true, force: true });
    const started = performance.now();
    lastOutput = await npmRun(['run', '--silent', 'generate']);
    walls.push(performance.now() - started);
  }
  console.log(`  wall per run: ${walls.map(formatMs).join(', ')}`);
  console.log('  where the time goes (last run, as generate prints it):');
  for (const line of lastOutput.trimEnd().split('\n')) console.log(`    ${line}`);
  return verdict('full npm run generate', median(walls), Math.max(...walls), FULL_RUN_TARGET_MS);
}

async function benchWatch(): Promise<boolean> {
  console.log(`\nwatch loop of npm run dev:spec, ${WATCH_EDITS} edits to openapi/components/schemas/Pet.yaml:`);
  const schemaFile = path.join(workspace, 'openapi', 'components', 'schemas', 'Pet.yaml');
  const original = await readFile(schemaFile, 'utf8');
  const waiting: Array<(result: WatchRegeneration) => void> = [];
  const watcher = await watchContract({
    locations: contractLocations(workspace),
    onRegenerated: (result) => waiting.shift()?.(result),
  });
  const latencies: number[] = [];
  try {
    for (let edit = 1; edit <= WATCH_EDITS; edit += 1) {
      const regenerated = new Promise<WatchRegeneration>((resolve) => waiting.push(resolve));
      const savedAt = performance.now();
      await writeFile(
        schemaFile,
        original.replace(/^description: .*$/m, `description: Benchmark edit ${edit}.`),
        'utf8',
      );
      const result = await regenerated;
      if (!result.ok) throw new Error(`regeneration ${edit} failed: ${JSON.stringify(result.findings)}`);
      latencies.push(performance.now() - savedAt);
      // Let any second event of the same save run out, so it is not taken for the next edit's result.
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
  } finally {
    await watcher.close();
  }
  console.log(`  save to outputs written: ${latencies.map(formatMs).join(', ')}`);
  return verdict('watch regeneration', median(latencies), Math.max(...latencies), WATCH_TARGET_MS);
}

function verdict(what: string, medianMs: number, worstMs: number, targetMs: number): boolean {
  const met = medianMs < targetMs;
  const status = met ? 'target met' : 'TARGET MISSED';
  console.log(
    `  ${what}: median ${formatMs(medianMs)}, worst ${formatMs(worstMs)}; target < ${formatMs(targetMs)}: ${status}`,
  );
  return met;
}

function npmRun(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('npm', args, { cwd: workspace }, (error, stdout, stderr) => {
      if (error) reject(new Error(`npm ${args.join(' ')} failed:\n${stdout}${stderr}`));
      else resolve(stdout);
    });
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

function formatMs(ms: number): string {
  return `${Math.round(ms)} ms`;
}
