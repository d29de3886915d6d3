// Row 4 of the bench and the mock's part of row 5, on the throw-away copy of the repository
// (bench/workspace.ts), because `npm run mock` regenerates generated/ as openapi/ changes:
// - how long `npm run mock` takes from being spawned to answering its first request (npm
//   included: what a developer waits for), over a few starts; the last one stays up;
// - `GET /v1/pets?limit=20` under wrk: Prism alone (`prism mock` of the same document, which
//   serves `/pets`), `npm run mock:stateful` with its default key (unlimited), `npm run mock`;
// - how long after an edit of an example under openapi/ the running mock answers with it.
import type { ChildProcess } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { seconds } from './edit-loop.ts';
import { startPrism } from './prism.ts';
import { answerOf, CONNECTIONS, freePort, median, npmRun, PATH, stop } from './support.ts';
import { int, judged, ms, type Row, reference } from './table.ts';
import { describeErrors, errorCount, requestsPerSecond, type WrkResult, wrk } from './wrk.ts';

const FIRST_ANSWER_TARGET_MS = 3000;
const EDIT_SERVED_TARGET_MS = 2000;
const MIN_STATEFUL_RATIO = 5;
const MIN_STATIC_RATIO = 1;
const MAX_STATIC_P99_MS = 50;
/** The stateful mock's p99 against the static mock's in the same run: the cost of its state in the tail (issue 42). */
const MAX_STATEFUL_P99_RATIO = 3;
/** Any key works with the static mock and Prism; the stateful mock's own key is read from its output. */
const ANY_KEY = { Authorization: 'Bearer ask_bench_any_key' };
/** The example of the first page, whose first pet's name the edit changes. */
const EXAMPLE_FILE = path.join('openapi', 'components', 'examples', 'PetsFirstPage.yaml');
const EDITED_NAME = 'name: Rex';
const POLL_MS = 10;

export interface MockOptions {
  starts: number;
  edits: number;
  seconds: number;
  warmupSeconds: number;
  log: (line: string) => void;
}

export interface MockRows {
  /** Row 4: the mocks' throughput. */
  throughput: Row[];
  /** Row 5: the mock's start and reload. */
  editLoop: Row[];
}

export async function mockRows(workspace: string, options: MockOptions): Promise<MockRows> {
  const { log } = options;
  const startTimes: number[] = [];
  let mock: { child: ChildProcess; url: string } | undefined;
  try {
    for (let run = 1; run <= options.starts; run += 1) {
      if (mock !== undefined) await stop(mock.child, true);
      const port = await freePort();
      const spawnedAt = performance.now();
      const child = npmRun(workspace, ['mock'], { MOCK_PORT: String(port) });
      mock = { child, url: `http://127.0.0.1:${port}` };
      await firstAnswer(child, `${mock.url}${PATH}`);
      startTimes.push(performance.now() - spawnedAt);
    }
    log(`  npm run mock, spawn to first answer: ${startTimes.map(seconds).join(', ')}`);
    if (mock === undefined) throw new Error('The mock was never started.');

    const load = async (url: string, headers: Record<string, string>) => {
      await wrk({ url, connections: CONNECTIONS, seconds: options.warmupSeconds, headers });
      return await wrk({ url, connections: CONNECTIONS, seconds: options.seconds, headers });
    };
    const prism = await startPrism(['mock', path.join(workspace, 'generated', 'openapi.yaml')], { quiet: true });
    let prismRun: WrkResult;
    try {
      const prismPath = PATH.replace(/^\/v1/, '');
      await answerOf(prism.origin, { path: prismPath, headers: ANY_KEY });
      prismRun = await load(`${prism.origin}${prismPath}`, ANY_KEY);
    } finally {
      await prism.stop();
    }
    const stateful = await startStateful(workspace);
    let statefulRun: WrkResult;
    try {
      await answerOf(stateful.url, { headers: stateful.headers });
      statefulRun = await load(`${stateful.url}${PATH}`, stateful.headers);
    } finally {
      await stop(stateful.child, true);
    }
    const staticRun = await load(`${mock.url}${PATH}`, ANY_KEY);
    for (const [name, run] of [
      ['Prism alone', prismRun],
      ['npm run mock:stateful', statefulRun],
      ['npm run mock', staticRun],
    ] as const) {
      log(`  ${name}: ${int(requestsPerSecond(run))} req/s, p99 ${ms(run.p99Us)}, errors ${describeErrors(run)}`);
    }

    const editTimes = await timeEdits(workspace, mock.url, options.edits);
    log(`  contract edit to the mock's answer: ${editTimes.map(seconds).join(', ')}`);

    const prismRps = requestsPerSecond(prismRun);
    const ratioValue = (run: WrkResult) => {
      const errors = errorCount(run);
      return `${(requestsPerSecond(run) / prismRps).toFixed(2)} (${int(requestsPerSecond(run))} req/s${
        errors > 0 ? `; errors ${describeErrors(run)}` : ''
      })`;
    };
    const ratioMet = (run: WrkResult, min: number) => requestsPerSecond(run) >= min * prismRps && errorCount(run) === 0;
    return {
      throughput: [
        reference(
          `Prism alone (prism mock), GET /pets?limit=20`,
          `${int(prismRps)} req/s, p99 ${ms(prismRun.p99Us)}, errors ${describeErrors(prismRun)}`,
        ),
        judged(
          `npm run mock:stateful (default key), GET ${PATH}, req/s / Prism`,
          ratioValue(statefulRun),
          `≥ ${MIN_STATEFUL_RATIO}`,
          ratioMet(statefulRun, MIN_STATEFUL_RATIO),
        ),
        judged(
          `npm run mock:stateful (default key), GET ${PATH}, p99 / the static mock's p99`,
          `${(statefulRun.p99Us / staticRun.p99Us).toFixed(2)} (${ms(statefulRun.p99Us)} against ${ms(staticRun.p99Us)})`,
          `≤ ${MAX_STATEFUL_P99_RATIO}`,
          statefulRun.p99Us <= MAX_STATEFUL_P99_RATIO * staticRun.p99Us,
        ),
        judged(
          `npm run mock (static), GET ${PATH}, req/s / Prism`,
          ratioValue(staticRun),
          `≥ ${MIN_STATIC_RATIO}`,
          ratioMet(staticRun, MIN_STATIC_RATIO),
        ),
        judged(
          `npm run mock (static), GET ${PATH}, p99`,
          ms(staticRun.p99Us),
          `< ${MAX_STATIC_P99_MS} ms`,
          staticRun.p99Us < MAX_STATIC_P99_MS * 1000,
        ),
      ],
      editLoop: [
        judged(
          `contract edit (an example in openapi/) served by the running npm run mock, median of ${editTimes.length}`,
          `${seconds(median(editTimes))} (worst ${seconds(Math.max(...editTimes))})`,
          `< ${seconds(EDIT_SERVED_TARGET_MS)}`,
          median(editTimes) < EDIT_SERVED_TARGET_MS,
        ),
        judged(
          `npm run mock: spawn to first answer, median of ${startTimes.length} starts`,
          `${seconds(median(startTimes))} (worst ${seconds(Math.max(...startTimes))})`,
          `< ${seconds(FIRST_ANSWER_TARGET_MS)}`,
          median(startTimes) < FIRST_ANSWER_TARGET_MS,
        ),
      ],
    };
  } finally {
    if (mock !== undefined) await stop(mock.child, true);
  }
}

/** Polls `url` until it answers 200; fails if the process exits first or after 30 s. */
async function firstAnswer(child: ChildProcess, url: string): Promise<void> {
  let output = '';
  for (const stream of [child.stdout, child.stderr]) stream?.on('data', (chunk: Buffer) => (output += chunk));
  const deadline = performance.now() + 30_000;
  while (performance.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`npm run mock exited with ${child.exitCode}: ${output}`);
    const status = await fetch(url, { headers: ANY_KEY }).then(
      async (answer) => {
        await answer.arrayBuffer();
        return answer.status;
      },
      () => 0,
    );
    if (status === 200) return;
    await sleep(POLL_MS);
  }
  throw new Error(`npm run mock did not answer within 30 s: ${output}`);
}

/** `npm run mock:stateful` on a free port; resolves with its origin and its default key once it has printed it. */
async function startStateful(
  workspace: string,
): Promise<{ child: ChildProcess; url: string; headers: Record<string, string> }> {
  const port = await freePort();
  const child = npmRun(workspace, ['mock:stateful'], { MOCK_PORT: String(port) });
  const key = await new Promise<string>((resolve, reject) => {
    let output = '';
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk));
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk;
      const found = /^Development key.*: (\S+)$/m.exec(output)?.[1];
      if (found !== undefined) resolve(found);
    });
    child.once('exit', (code) => reject(new Error(`npm run mock:stateful exited with ${code}: ${output}`)));
  });
  return { child, url: `http://127.0.0.1:${port}`, headers: { Authorization: `Bearer ${key}` } };
}

/** Edits the first pet's name in the first-page example; the time until the mock answers with it, per edit. */
async function timeEdits(workspace: string, url: string, edits: number): Promise<number[]> {
  const file = path.join(workspace, EXAMPLE_FILE);
  const original = await readFile(file, 'utf8');
  if (!original.includes(EDITED_NAME)) throw new Error(`${EXAMPLE_FILE} has no "${EDITED_NAME}" to edit.`);
  const times: number[] = [];
  try {
    for (let edit = 1; edit <= edits; edit += 1) {
      const name = `Rex ${edit}`;
      const savedAt = performance.now();
      await writeFile(file, original.replace(EDITED_NAME, `name: ${name}`));
      const deadline = savedAt + 15_000;
      for (;;) {
        const { body } = await answerOf(url, { headers: ANY_KEY });
        if (body.includes(`"${name}"`)) break;
        if (performance.now() > deadline) throw new Error(`The mock did not serve the edit "${name}" within 15 s.`);
        await sleep(POLL_MS);
      }
      times.push(performance.now() - savedAt);
      // Let any second event of the same save run out, so it is not taken for the next edit's reload.
      await sleep(300);
    }
  } finally {
    await writeFile(file, original);
  }
  return times;
}
