// `npm run bench [-- --quick] [--skip-test-suite]`: every target of the performance issue (#15) in
// one run, printed as one Markdown table (figure, measured, target, MET or MISSED); exits 1 when
// any target is missed. The full run (about five minutes, plus `npm test`) also writes
// bench/results.md; `--quick` (under a minute) measures shorter, on fewer pets, without
// `npm test`, and writes nothing. See bench/README.md for what each row measures and why.
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { apiRows } from './api.ts';
import { docsRows } from './docs.ts';
import { editLoopRows } from './edit-loop.ts';
import { fuzzRows } from './fuzz-rate.ts';
import { idleMemoryRows } from './idle-memory.ts';
import { type MockRows, mockRows } from './mocks.ts';
import { scaleRows } from './scale.ts';
import { failed, markdownTable, missedAny, type Row, skipped } from './table.ts';
import { TEST_SUITE_FIGURE, TEST_SUITE_TARGET, testSuiteRows } from './test-suite.ts';
import { createWorkspace } from './workspace.ts';
import { requireWrk } from './wrk.ts';

const RESULTS = new URL('./results.md', import.meta.url);

const { values: flags } = parseArgs({
  options: { quick: { type: 'boolean', default: false }, 'skip-test-suite': { type: 'boolean', default: false } },
});
const quick = flags.quick;
requireWrk();

// Quick: the same rows on fewer pets and shorter loads, for checking the harness or a change's direction.
const settings = quick
  ? {
      api: { seconds: 1, rounds: 1, warmupSeconds: 1 },
      docs: { seconds: 5 },
      scale: { sizes: [1_000, 100_000], seconds: 1, warmupSeconds: 0 },
      mocks: { starts: 1, edits: 1, seconds: 1, warmupSeconds: 1 },
      editLoop: { generateRuns: 3, watchEdits: 3 },
    }
  : {
      api: { seconds: 4, rounds: 2, warmupSeconds: 2 },
      docs: { seconds: 30 },
      scale: { sizes: [1_000, 100_000, 1_000_000], seconds: 4, warmupSeconds: 1 },
      mocks: { starts: 3, edits: 3, seconds: 4, warmupSeconds: 1 },
      editLoop: { generateRuns: 7, watchEdits: 10 },
    };
const log = (line: string) => console.log(line);
const loads = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(', ');

const startedAt = new Date();
const loadBefore = loads();
const machine = `Node ${process.version}, ${cpus().length} cores`;
console.log(
  `npm run bench${quick ? ' -- --quick (QUICK: short loads, at most 10^5 pets, no npm test)' : ''}: ${machine}, ` +
    `load average before ${loadBefore}`,
);

/** Runs one part of the bench; a part that breaks becomes one missed row, and the others still run. */
async function part<T>(title: string, measure: () => Promise<T>, onFailure: (row: Row) => T): Promise<T> {
  console.log(`\n${title}`);
  const started = performance.now();
  try {
    return await measure();
  } catch (error) {
    console.error(error);
    return onFailure(failed(title, error));
  } finally {
    console.log(`  (${((performance.now() - started) / 1000).toFixed(0)} s, load average ${loads()})`);
  }
}
const asRows = (row: Row) => [row];

const api = await part(
  'Rows 1-2: the API against the bare app, on SQLite and on PostgreSQL + Redis',
  () => apiRows({ ...settings.api, log }),
  asRows,
);
const docs = await part('Row 7: the docs under load beside the API', () => docsRows({ ...settings.docs, log }), asRows);
const scale = await part('Row 3: scale', () => scaleRows({ ...settings.scale, log }), asRows);
const fuzzing = await part('Row 8: the fuzzer against the server', () => fuzzRows(log), asRows);
const idle = await part('Row 9: the server at rest', () => idleMemoryRows(log), asRows);
const workspace = await createWorkspace();
let mocks: MockRows;
let editLoop: Row[];
try {
  // The mocks run before the generate timings: the running mock's watch loop would regenerate too.
  mocks = await part(
    'Rows 4-5: the mocks',
    () => mockRows(workspace.root, { ...settings.mocks, log }),
    (row) => ({ throughput: [row], editLoop: [] }),
  );
  editLoop = await part(
    'Row 5: the edit loop',
    () => editLoopRows(workspace.root, { ...settings.editLoop, log }),
    asRows,
  );
} finally {
  await workspace.remove();
}
const testSuite =
  quick || flags['skip-test-suite']
    ? [skipped(TEST_SUITE_FIGURE, TEST_SUITE_TARGET, quick ? 'quick run' : '--skip-test-suite')]
    : await part('Row 6: npm test', () => testSuiteRows(log), asRows);

const rows = [
  ...api,
  ...scale,
  ...mocks.throughput,
  ...editLoop,
  ...mocks.editLoop,
  ...docs,
  ...fuzzing,
  ...idle,
  ...testSuite,
];
const loadAfter = loads();
const elapsed = ((Date.now() - startedAt.getTime()) / 1000).toFixed(0);
const table = markdownTable(rows);
console.log(
  `\n${quick ? 'QUICK run (--quick): short loads, at most 10^5 pets, no npm test; not for judging the targets.\n\n' : ''}${table}`,
);
console.log(`\nload average before ${loadBefore}, after ${loadAfter}; ${elapsed} s`);

if (!quick) {
  writeFileSync(
    RESULTS,
    `# Bench results\n\n` +
      `Written by the last full \`npm run bench${flags['skip-test-suite'] ? ' -- --skip-test-suite' : ''}\` ` +
      `(see [README.md](README.md) for what each row measures). Compare ratios, never absolute figures across machines.\n\n` +
      `- date: ${startedAt.toISOString()}\n- machine: ${machine}\n` +
      `- load average (1, 5, 15 min): before ${loadBefore}; after ${loadAfter}\n- duration: ${elapsed} s\n\n` +
      `${table}\n`,
  );
  console.log(`Written to ${RESULTS.pathname}.`);
}
process.exitCode = missedAny(rows) ? 1 : 0;
