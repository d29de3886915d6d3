// Where the full stack's time goes, measured the way `npm run bench` measures it: the bare app,
// then the service's pieces added one per step (bench/servers/floor.ts), each under the same load.
// It shows which pieces the 0.8 target leaves room for; it has no target of its own.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { answerOf, FLOOR_STEPS, load, PATH, seed, start } from './support.ts';

const DURATION_S = Number(process.env.BENCH_DURATION ?? 5);
const FLOOR = fileURLToPath(new URL('./servers/floor.ts', import.meta.url));

const dir = mkdtempSync(join(tmpdir(), 'animal-store-bench-'));
const databasePath = join(dir, 'bench.db');
const secret = await seed(databasePath);
const headers = { Authorization: `Bearer ${secret}` };
try {
  const full = await start(FLOOR, { DATABASE_PATH: databasePath, FLOOR_STEP: String(FLOOR_STEPS.length - 1) });
  const answer = await answerOf(full.url, headers).finally(() => full.child.kill('SIGTERM'));

  console.log(`GET ${PATH}, ${DURATION_S} s per step; share: req/s against the bare app`);
  let bareRps = 0;
  for (const [step, name] of FLOOR_STEPS.entries()) {
    const server = await start(FLOOR, {
      DATABASE_PATH: databasePath,
      FLOOR_STEP: String(step),
      BENCH_BODY: answer.body,
      BENCH_HEADERS: JSON.stringify(answer.headers),
    });
    try {
      await load(server.url, headers, 2);
      const rps = await load(server.url, headers, DURATION_S);
      if (step === 0) bareRps = rps;
      console.log(`${name.padEnd(44)} ${rps.toFixed(0).padStart(7)} req/s  ${(rps / bareRps).toFixed(2)}`);
    } finally {
      server.child.kill('SIGTERM');
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
