// Row 9 of the bench: the compiled server's resident memory at rest (issue 42), as `npm start`
// runs it on SQLite with its defaults: spawned, answered `GET /v1/pets?limit=20` once, then left
// alone for 30 s. Its memory first settles on a plateau; V8's memory reducer, which acts once
// allocation has slowed for several seconds, then gives back the young generation the start grew,
// and an idle instance stays there. Both are reported; at rest is the second. What a configuration
// does not use (pg, ioredis, OpenTelemetry, prom-client, the docs' renderer, the validators of
// operations never called) is not loaded, so it is not counted.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { residentBytes } from './proc.ts';
import { sqliteKey } from './seed.ts';
import { median, PATH, startServer, stop } from './support.ts';
import { judged, type Row } from './table.ts';

const MAX_IDLE_MB = 80;
const STARTS = 3;
/** How often the memory is read, how long the server is left alone, and the end of that time whose readings count. */
const READ_EVERY_MS = 500;
const REST_MS = 30_000;
const AT_REST_MS = 10_000;
/** Equal readings in a row that make the first plateau. */
const PLATEAU_READINGS = 4;

export async function idleMemoryRows(log: (line: string) => void): Promise<Row[]> {
  const folder = mkdtempSync(path.join(tmpdir(), 'animal-store-bench-idle-'));
  const databasePath = path.join(folder, 'bench.db');
  const key = await sqliteKey(databasePath);
  const figures: number[] = [];
  const plateaus: number[] = [];
  try {
    for (let start = 0; start < STARTS; start++) {
      const { child, url } = await startServer({ DATABASE_PATH: databasePath });
      try {
        const answer = await fetch(`${url}${PATH}`, { headers: { Authorization: `Bearer ${key}` } });
        if (answer.status !== 200) throw new Error(`${PATH} answered ${answer.status}: ${await answer.text()}`);
        await answer.arrayBuffer();
        const { plateau, atRest } = await restingResidentBytes(child.pid ?? 0);
        plateaus.push(plateau);
        figures.push(atRest);
        log(`  start ${start + 1}: ${mb(plateau)} on the first plateau, ${mb(atRest)} at rest`);
      } finally {
        await stop(child);
      }
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
  const idle = median(figures);
  return [
    judged(
      `the compiled server on SQLite at rest after one answer, resident memory (median of ${STARTS} starts; first plateau)`,
      `${mb(idle)} (${mb(median(plateaus))})`,
      `< ${MAX_IDLE_MB} MB`,
      idle < MAX_IDLE_MB * 2 ** 20,
    ),
  ];
}

/**
 * The process's resident memory over REST_MS: the first PLATEAU_READINGS equal readings in a row,
 * and the median of the readings of the last AT_REST_MS.
 */
async function restingResidentBytes(pid: number): Promise<{ plateau: number; atRest: number }> {
  const readings: number[] = [];
  let plateau: number | undefined;
  for (let waited = 0; waited <= REST_MS; waited += READ_EVERY_MS) {
    readings.push(residentBytes(pid));
    const last = readings.slice(-PLATEAU_READINGS);
    if (plateau === undefined && last.length === PLATEAU_READINGS && last.every((reading) => reading === last[0]))
      plateau = last[0];
    await sleep(READ_EVERY_MS);
  }
  const atRest = median(readings.slice(-AT_REST_MS / READ_EVERY_MS));
  return { plateau: plateau ?? Math.max(...readings), atRest };
}

const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;
