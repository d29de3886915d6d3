// Requests per second of `GET /v1/pets?limit=20` through the full stack (server/main.ts: key
// lookup, rate limit, validation, SQLite, logging) next to a bare Hono app that returns the same
// bytes, in one run on this machine. Target: full / bare >= 0.8.
import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDatabase } from '../server/database.ts';
import { SqliteKeyStore } from '../server/keys/sqlite-key-store.ts';
import { SqlitePetStore } from '../server/store/sqlite-pet-store.ts';

const TARGET_RATIO = 0.8;
const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = 50;
const PATH = '/v1/pets?limit=20';
/** Written by Node's HTTP server itself, for both servers alike. */
const NODE_HEADERS = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);

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
const sample = await fetch(`${full.url}${PATH}`, { headers });
if (sample.status !== 200) throw new Error(`The full stack answered ${sample.status}: ${await sample.text()}`);
const body = await sample.text();
// The bare app answers with the same bytes: the same body and the same headers (with the values
// of this first answer), so the ratio measures the service's work, not a bigger response.
const answerHeaders = Object.fromEntries([...sample.headers].filter(([name]) => !NODE_HEADERS.has(name)));
const bare = await start(fileURLToPath(new URL('./servers/bare.ts', import.meta.url)), {
  BENCH_BODY: body,
  BENCH_HEADERS: JSON.stringify(answerHeaders),
});
await assertSameAnswer(bare.url, body, answerHeaders);

try {
  // Warm both (JIT, SQLite page cache) before measuring; then alternate so drift hits both alike.
  await load(full.url, headers, 2);
  await load(bare.url, {}, 2);
  const fullRps = await load(full.url, headers, DURATION_S);
  const bareRps = await load(bare.url, {}, DURATION_S);
  const ratio = fullRps / bareRps;
  console.log(`GET ${PATH}, ${CONNECTIONS} connections, ${DURATION_S} s each, body ${body.length} bytes, ${Object.keys(answerHeaders).length} headers besides Node's own`);
  console.log(`full stack (enterprise key): ${fullRps.toFixed(0)} req/s`);
  console.log(`bare Hono, constant body:    ${bareRps.toFixed(0)} req/s`);
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

async function seed(path: string): Promise<string> {
  const db = openDatabase(path);
  const pets = new SqlitePetStore(db);
  for (let index = 1; index <= 100; index += 1) {
    await pets.create({ name: `Pet ${index}`, categoryId: (index % 7) + 1, status: index % 3 === 0 ? 'sold' : 'available' });
  }
  const { secret } = await new SqliteKeyStore(db).create({ plan: 'enterprise', perMinute: 100_000_000, perDay: 1_000_000_000, label: 'bench' });
  db.close();
  return secret;
}

async function start(entry: string, env: Record<string, string>, nodeOptions: string[] = []): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [...nodeOptions, '--import', 'tsx', entry], {
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)\/v1/.exec(output);
      if (match) {
        // The full stack logs a line per request: keep draining stdout, or the process blocks on a full pipe.
        child.stdout!.off('data', onData);
        child.stdout!.resume();
        resolve(match[1]!);
      }
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${entry} exited with ${code}: ${output}`)));
  });
  return { child, url };
}

async function assertSameAnswer(url: string, body: string, headers: Record<string, string>): Promise<void> {
  const answer = await fetch(`${url}${PATH}`);
  const bareHeaders = Object.fromEntries([...answer.headers].filter(([name]) => !NODE_HEADERS.has(name)));
  if ((await answer.text()) !== body || JSON.stringify(bareHeaders) !== JSON.stringify(headers)) {
    throw new Error(`The bare app does not answer with the full stack's bytes: ${JSON.stringify(bareHeaders)}`);
  }
}

async function load(url: string, headers: Record<string, string>, duration: number): Promise<number> {
  const result = await autocannon({ url: `${url}${PATH}`, headers, connections: CONNECTIONS, duration });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return result.requests.average;
}
