// `npm run bench:runtime`: what running the server compiled (`npm start` runs dist/runtime) changed
// against running its TypeScript through tsx, in one run on one database: time from spawn to the
// first answer of GET /v1/pets?limit=20, resident memory once answering, and peak resident memory
// and throughput under wrk at 50 connections. Prints a Markdown table; bench/README.md keeps a run.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { residentBytes, sampleResidentMemory } from './proc.ts';
import { fillSqlite, sqliteKey } from './seed.ts';
import { CONNECTIONS, median, PATH, startNode, stop } from './support.ts';
import { markdownTable, reference } from './table.ts';
import { requestsPerSecond, requireWrk, wrk } from './wrk.ts';

const ROUNDS = 3;
const LOAD_SECONDS = 5;
const PETS = 10_000;

const RUNTIMES = [
  { name: 'tsx (node --import tsx server/process/main.ts)', args: ['--import', 'tsx', 'server/process/main.ts'] },
  { name: 'compiled (node dist/runtime/server/process/main.js)', args: ['dist/runtime/server/process/main.js'] },
] as const;

requireWrk();
execFileSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit' });
const folder = mkdtempSync(path.join(tmpdir(), 'animal-store-bench-runtime-'));
const databasePath = path.join(folder, 'bench.db');
const key = await sqliteKey(databasePath);
fillSqlite(databasePath, PETS);
const headers = { Authorization: `Bearer ${key}` };

interface Figures {
  firstAnswerMs: number[];
  idleRss: number[];
  peakRss: number[];
  rps: number[];
}

async function measure(args: readonly string[], figures: Figures): Promise<void> {
  const spawned = performance.now();
  const { child, url } = await startNode([...args], { DATABASE_PATH: databasePath, LOG_LEVEL: 'warn' });
  try {
    const answer = await fetch(`${url}${PATH}`, { headers });
    if (answer.status !== 200) throw new Error(`${PATH} answered ${answer.status}: ${await answer.text()}`);
    await answer.arrayBuffer();
    figures.firstAnswerMs.push(performance.now() - spawned);
    const pid = child.pid ?? 0;
    figures.idleRss.push(residentBytes(pid));
    const sampler = sampleResidentMemory(pid);
    const load = await wrk({ url: `${url}${PATH}`, connections: CONNECTIONS, seconds: LOAD_SECONDS, headers });
    figures.peakRss.push(sampler.stop());
    figures.rps.push(requestsPerSecond(load));
  } finally {
    await stop(child);
  }
}

const results = RUNTIMES.map(() => ({ firstAnswerMs: [], idleRss: [], peakRss: [], rps: [] }) as Figures);
try {
  // Alternating rounds, so a change in the machine's load reaches both runtimes alike.
  for (let round = 0; round < ROUNDS; round++) {
    for (const [index, runtime] of RUNTIMES.entries()) await measure(runtime.args, results[index] as Figures);
  }
} finally {
  rmSync(folder, { recursive: true, force: true });
}

const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;
const rows = RUNTIMES.flatMap((runtime, index) => {
  const figures = results[index] as Figures;
  return [
    reference(
      `${runtime.name}: spawn to first answer (median of ${ROUNDS})`,
      `${median(figures.firstAnswerMs).toFixed(0)} ms`,
    ),
    reference(`${runtime.name}: RSS once answering`, mb(median(figures.idleRss))),
    reference(`${runtime.name}: peak RSS under load (${CONNECTIONS} connections)`, mb(median(figures.peakRss))),
    reference(`${runtime.name}: GET ${PATH} requests/s`, median(figures.rps).toFixed(0)),
  ];
});
const [tsx, compiled] = results as [Figures, Figures];
rows.push(
  reference(
    'compiled / tsx: time to first answer',
    (median(compiled.firstAnswerMs) / median(tsx.firstAnswerMs)).toFixed(2),
  ),
  reference('compiled / tsx: peak RSS under load', (median(compiled.peakRss) / median(tsx.peakRss)).toFixed(2)),
  reference('compiled / tsx: requests/s', (median(compiled.rps) / median(tsx.rps)).toFixed(2)),
);
console.log(`npm run bench:runtime: ${PETS} pets on SQLite, ${ROUNDS} alternating rounds\n`);
console.log(markdownTable(rows));
