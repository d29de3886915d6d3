// Row 8 of the bench: how fast the fuzzer sends, against the server on SQLite (its own process,
// an enterprise key the run cannot exhaust), with the default budget and a fixed seed, as
// `npm run fuzz` runs (its start-up work included): its requests per second; its own CPU time per
// request (generating, validating, judging: this process runs nothing else meanwhile); and, for
// scale, a plain client sending `GET /v1/pets?limit=20` the same way (one request at a time, each
// answer read whole). The fuzzer's requests are a heavier mix (creates, 16 KiB bodies, refusals).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fuzz } from '../fuzz/run.ts';
import { readDocument } from '../fuzz/spec.ts';
import { sqliteKey } from './seed.ts';
import { PATH, startServer, stop } from './support.ts';
import { int, judged, type Row, reference } from './table.ts';

const BUNDLE = fileURLToPath(new URL('../generated/openapi.json', import.meta.url));
const SEED = 8;

export async function fuzzRows(log: (line: string) => void): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), 'animal-store-bench-fuzz-'));
  const databasePath = join(dir, 'bench.db');
  const key = await sqliteKey(databasePath);
  // Empty values count as unset, so a DATABASE_URL or REDIS_URL of the calling shell cannot leak in.
  const server = await startServer({ DATABASE_PATH: databasePath, DATABASE_URL: '', REDIS_URL: '', LOG_LEVEL: 'info' });
  try {
    const document = await readDocument(BUNDLE);
    const cpu = process.cpuUsage();
    const report = await fuzz({ document, baseUrl: `${server.url}/v1`, key, seed: SEED });
    const { user, system } = process.cpuUsage(cpu);
    const fuzzRate = report.requests / report.seconds;
    log(`  fuzz: ${report.requests} requests in ${report.seconds.toFixed(1)} s, ${report.findings.length} findings`);

    // The same number of requests from a client that only sends and reads.
    const started = performance.now();
    for (let sent = 0; sent < report.requests; sent++) {
      const answer = await fetch(`${server.url}${PATH}`, { headers: { Authorization: `Bearer ${key}` } });
      await answer.text();
    }
    const plainRate = report.requests / ((performance.now() - started) / 1000);
    log(`  plain client: ${int(plainRate)} requests/s`);
    return [
      judged(
        `npm run fuzz (defaults, seed ${SEED}) against the server on SQLite`,
        `${report.findings.length} findings in ${report.requests} requests, ${report.seconds.toFixed(1)} s`,
        'no finding, ≥ 500 requests, < 60 s',
        report.findings.length === 0 && report.requests >= 500 && report.seconds < 60,
      ),
      reference('npm run fuzz, requests/s', int(fuzzRate)),
      reference('npm run fuzz, its own CPU per request', `${int((user + system) / report.requests)} µs`),
      reference(
        `npm run fuzz requests/s / a plain sequential client's (GET ${PATH})`,
        `${(fuzzRate / plainRate).toFixed(2)} (${int(plainRate)}/s)`,
      ),
    ];
  } finally {
    await stop(server.child);
    rmSync(dir, { recursive: true, force: true });
  }
}
