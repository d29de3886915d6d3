// Where the full stack's time goes, measured the way `npm run bench` measures it (wrk, 50
// connections): the bare app, then the service's pieces added one per step
// (bench/servers/floor.ts), each under the same load. It has no target of its own.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpuOf } from './proc.ts';
import { fillSqlite, sqliteKey } from './seed.ts';
import { answerOf, CONNECTIONS, FLOOR_STEPS, PATH, start, stop } from './support.ts';
import { describeErrors, requestsPerSecond, requireWrk, wrk } from './wrk.ts';

const DURATION_S = Number(process.env.BENCH_DURATION ?? 5);
const FLOOR = fileURLToPath(new URL('./servers/floor.ts', import.meta.url));

requireWrk();
const dir = mkdtempSync(join(tmpdir(), 'animal-store-bench-'));
const databasePath = join(dir, 'bench.db');
const secret = await sqliteKey(databasePath);
fillSqlite(databasePath, 100);
const headers = { Authorization: `Bearer ${secret}` };
try {
  const full = await start(FLOOR, { DATABASE_PATH: databasePath, FLOOR_STEP: String(FLOOR_STEPS.length - 1) });
  const answer = await answerOf(full.url, { headers }).finally(() => stop(full.child));

  console.log(
    `GET ${PATH}, wrk, ${CONNECTIONS} connections, ${DURATION_S} s per step; share: req/s against the bare app; ` +
      'CPU: the server process’s CPU µs per request (steadier than req/s on a shared machine)',
  );
  let bareRps = 0;
  for (const [step, name] of FLOOR_STEPS.entries()) {
    const server = await start(FLOOR, {
      DATABASE_PATH: databasePath,
      FLOOR_STEP: String(step),
      BENCH_BODY: answer.body,
      BENCH_HEADERS: JSON.stringify(answer.headers),
    });
    try {
      const url = `${server.url}${PATH}`;
      await wrk({ url, connections: CONNECTIONS, seconds: 2, headers });
      const cpuBefore = cpuOf(server.child.pid ?? 0);
      const result = await wrk({ url, connections: CONNECTIONS, seconds: DURATION_S, headers });
      const cpuUs = ((cpuOf(server.child.pid ?? 0) - cpuBefore) * 1e6) / (requestsPerSecond(result) * DURATION_S);
      const rps = requestsPerSecond(result);
      if (step === 0) bareRps = rps;
      console.log(
        `${name.padEnd(44)} ${rps.toFixed(0).padStart(7)} req/s  ${(rps / bareRps).toFixed(2)}  ` +
          `CPU ${cpuUs.toFixed(0).padStart(3)} µs  p99 ${(result.p99Us / 1000).toFixed(1)} ms  errors ${describeErrors(result)}`,
      );
    } finally {
      await stop(server.child);
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
