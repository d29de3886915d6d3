// Requests per second of `GET /v1/pets?limit=20` through the full stack (server/main.ts: key
// lookup, rate limit, validation, SQLite, logging) next to a bare Hono app that returns the same
// bytes, in one run on this machine. Target: full / bare >= 0.8.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { answerOf, CONNECTIONS, load, PATH, seed, start } from './support.ts';

const TARGET_RATIO = 0.8;
const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);

const dir = mkdtempSync(join(tmpdir(), 'animal-store-bench-'));
const databasePath = join(dir, 'bench.db');
const secret = await seed(databasePath);

// BENCH_PROFILE=<dir> writes a CPU profile of the full stack there, to see where its time goes.
const profile = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];
const full = await start(
  fileURLToPath(new URL('../server/main.ts', import.meta.url)),
  { DATABASE_PATH: databasePath, LOG_LEVEL: process.env.LOG_LEVEL ?? 'info' },
  profile,
);
const headers = { Authorization: `Bearer ${secret}` };
// The bare app answers with the same bytes: the same body and the same headers (with the values
// of this first answer), so the ratio measures the service's work, not a bigger response.
const { body, headers: answerHeaders } = await answerOf(full.url, headers);
const bare = await start(fileURLToPath(new URL('./servers/bare.ts', import.meta.url)), {
  BENCH_BODY: body,
  BENCH_HEADERS: JSON.stringify(answerHeaders),
});

try {
  const bareAnswer = await answerOf(bare.url);
  if (JSON.stringify(bareAnswer) !== JSON.stringify({ body, headers: answerHeaders })) {
    throw new Error(`The bare app does not answer with the full stack's bytes: ${JSON.stringify(bareAnswer.headers)}`);
  }
  // Warm both (JIT, the full stack's caches) before measuring either.
  await load(full.url, headers, 2);
  await load(bare.url, {}, 2);
  const fullRps = await load(full.url, headers, DURATION_S);
  const bareRps = await load(bare.url, {}, DURATION_S);
  const ratio = fullRps / bareRps;
  console.log(
    `GET ${PATH}, ${CONNECTIONS} connections, ${DURATION_S} s each, body ${body.length} bytes, ${Object.keys(answerHeaders).length} headers besides Node's own`,
  );
  console.log(`full stack (enterprise key): ${fullRps.toFixed(0)} req/s`);
  console.log(`bare Hono, constant answer:  ${bareRps.toFixed(0)} req/s`);
  console.log(`ratio: ${ratio.toFixed(2)} (target >= ${TARGET_RATIO}) ${ratio >= TARGET_RATIO ? 'MET' : 'MISSED'}`);
  process.exitCode = ratio >= TARGET_RATIO ? 0 : 1;
} finally {
  const fullExited = new Promise((resolve) => full.child.once('exit', resolve));
  full.child.kill('SIGTERM');
  bare.child.kill('SIGTERM');
  // The profile is written as the process exits.
  await fullExited;
  rmSync(dir, { recursive: true, force: true });
}
