// Row 3 of the bench: whether reads stay as fast with a million pets as with a thousand. For each
// size, pets are added by one SQL statement (bench/seed.ts) and a fresh server process is started.
// Two figures per size:
// - `GET /v1/pets?status=sold&limit=100` under wrk (50 connections), a status that 30 % of the
//   pets have: its p50 and p99.
// - The latency of each page of one client following `Link: rel="next"` 1,000 pages deep, of
//   `GET /v1/pets?limit=1`: pages of one pet, so that 1,000 pages exist at every size (10^3 pets
//   are exactly 1,000 of them) and every size walks the same depth through the same ids; only the
//   table around them grows. Before it, the code is warmed by walking another chain
//   (`status=available`), not the measured pages, which would then come from the read cache.
// The server's resident memory (VmRSS) is sampled throughout, and its largest value reported.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { backingServicesMissing, withBackingServices } from './backing.ts';
import { sampleResidentMemory } from './proc.ts';
import { fillPostgres, fillSqlite, postgresKey, sqliteKey } from './seed.ts';
import { CONNECTIONS, median, percentile, start, stop } from './support.ts';
import { int, judged, ms, type Row, reference, skipped } from './table.ts';
import { describeErrors, errorCount, requestsPerSecond, type WrkResult, wrk } from './wrk.ts';

const MAIN = fileURLToPath(new URL('../server/process/main.ts', import.meta.url));
const SOLD_PAGE = '/v1/pets?status=sold&limit=100';
const WALK_START = '/v1/pets?limit=1';
const WARM_WALK_START = '/v1/pets?status=available&limit=1';
const WALK_PAGES = 1_000;
const WARM_WALK_PAGES = 200;
const MAX_GROWTH = 1.5;
const MAX_RSS_MB = 150;

export interface ScaleOptions {
  /** Pet counts, smallest first; the largest is judged against the smallest. */
  sizes: number[];
  seconds: number;
  warmupSeconds: number;
  log: (line: string) => void;
}

interface SizeFigures {
  pets: number;
  page: WrkResult;
  /** Milliseconds per page of the walk. */
  walk: number[];
  rssBytes: number;
}

/** A server on a database that `fill(pets)` grows. */
interface Engine {
  name: string;
  fill(pets: number): Promise<void>;
  env: Record<string, string>;
  secret: string;
}

export async function scaleRows(options: ScaleOptions): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), 'animal-store-bench-'));
  try {
    const databasePath = join(dir, 'scale.db');
    const sqlite: Engine = {
      name: 'SQLite',
      secret: await sqliteKey(databasePath),
      fill: async (pets) => fillSqlite(databasePath, pets),
      env: { DATABASE_PATH: databasePath, DATABASE_URL: '', REDIS_URL: '' },
    };
    const rows = judge(sqlite.name, await measureSizes(sqlite, options), options);
    const missing = await backingServicesMissing();
    if (missing !== undefined) return [...rows, ...judge('PostgreSQL + Redis', undefined, options, missing)];
    const postgresRows = await withBackingServices(async (backing) => {
      const postgres: Engine = {
        name: 'PostgreSQL + Redis',
        secret: await postgresKey(backing.DATABASE_URL),
        fill: (pets) => fillPostgres(backing.DATABASE_URL, pets),
        env: { ...backing, DATABASE_PATH: join(dir, 'unused.db') },
      };
      return judge(postgres.name, await measureSizes(postgres, options), options);
    });
    return [...rows, ...postgresRows];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function measureSizes(engine: Engine, options: ScaleOptions): Promise<SizeFigures[]> {
  const figures: SizeFigures[] = [];
  for (const pets of options.sizes) {
    const seeding = performance.now();
    await engine.fill(pets);
    const seededMs = performance.now() - seeding;
    const server = await start(MAIN, { ...engine.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'info' });
    try {
      const memory = sampleResidentMemory(server.child.pid ?? 0);
      const headers = { Authorization: `Bearer ${engine.secret}` };
      await walk(server.url, WARM_WALK_START, WARM_WALK_PAGES, headers);
      const pages = await walk(server.url, WALK_START, WALK_PAGES, headers);
      const url = `${server.url}${SOLD_PAGE}`;
      // The walks above have warmed the code already; a quick run needs no more.
      if (options.warmupSeconds > 0)
        await wrk({ url, connections: CONNECTIONS, seconds: options.warmupSeconds, headers });
      const page = await wrk({ url, connections: CONNECTIONS, seconds: options.seconds, headers });
      const size = { pets, page, walk: pages, rssBytes: memory.stop() };
      figures.push(size);
      options.log(
        `  ${engine.name}, ${powerOfTen(pets)} pets (added in ${int(seededMs)} ms): sold page ${describe(page)}; ` +
          `cursor ${pages.length} pages p50 ${msOf(median(pages))}, p99 ${msOf(percentile(pages, 0.99))}; ` +
          `RSS max ${megabytes(size.rssBytes)}`,
      );
    } finally {
      await stop(server.child);
    }
  }
  return figures;
}

/** Follows `Link: rel="next"` from `path` for up to `pages` pages; the milliseconds of each. */
async function walk(url: string, path: string, pages: number, headers: Record<string, string>): Promise<number[]> {
  const times: number[] = [];
  let next: string | undefined = path;
  while (next !== undefined && times.length < pages) {
    const started = performance.now();
    const answer = await fetch(`${url}${next}`, { headers });
    const body = await answer.text();
    times.push(performance.now() - started);
    if (answer.status !== 200) throw new Error(`GET ${next} answered ${answer.status}: ${body}`);
    next = /<([^>]+)>;\s*rel="next"/.exec(answer.headers.get('link') ?? '')?.[1];
  }
  return times;
}

function judge(engine: string, sizes: SizeFigures[] | undefined, options: ScaleOptions, missing = ''): Row[] {
  const smallest = options.sizes[0] ?? 0;
  const largest = options.sizes.at(-1) ?? 0;
  const ratioFigures = [
    ['sold page p50', (size: SizeFigures) => size.page.p50Us / 1000],
    ['sold page p99', (size: SizeFigures) => size.page.p99Us / 1000],
    [`cursor ${WALK_PAGES.toLocaleString('en-US')} pages deep, p50 per page`, (size: SizeFigures) => median(size.walk)],
    [
      `cursor ${WALK_PAGES.toLocaleString('en-US')} pages deep, p99 per page`,
      (size: SizeFigures) => percentile(size.walk, 0.99),
    ],
  ] as const;
  const ratioLabel = (what: string) => `${engine}: ${what}, ${powerOfTen(largest)} / ${powerOfTen(smallest)} pets`;
  const rssFigure = `${engine}: server RSS under load, ${powerOfTen(largest)} pets (max)`;
  if (sizes === undefined) {
    return [
      ...ratioFigures.map(([what]) => skipped(ratioLabel(what), `≤ ${MAX_GROWTH}`, missing)),
      skipped(rssFigure, `< ${MAX_RSS_MB} MB`, missing),
    ];
  }
  const rows = sizes
    .slice(0, -1)
    .map((size) =>
      reference(
        `${engine}, ${powerOfTen(size.pets)} pets: sold page; cursor per page; RSS`,
        `${describe(size.page)}; p50 ${msOf(median(size.walk))}, p99 ${msOf(percentile(size.walk, 0.99))} ` +
          `(${size.walk.length} pages); ${megabytes(size.rssBytes)}`,
      ),
    );
  const first = sizes[0];
  const last = sizes.at(-1);
  if (first === undefined || last === undefined) return rows;
  const errors = sizes.reduce((sum, size) => sum + errorCount(size.page), 0);
  for (const [what, figure] of ratioFigures) {
    const ratio = figure(last) / figure(first);
    rows.push(
      judged(
        ratioLabel(what),
        `${ratio.toFixed(2)} (${msOf(figure(last))} / ${msOf(figure(first))})` +
          (what.startsWith('sold') && errors > 0 ? `; ${errors} errors` : ''),
        `≤ ${MAX_GROWTH}`,
        ratio <= MAX_GROWTH && (!what.startsWith('sold') || errors === 0),
      ),
    );
  }
  rows.push(
    judged(rssFigure, megabytes(last.rssBytes), `< ${MAX_RSS_MB} MB`, last.rssBytes < MAX_RSS_MB * 1024 * 1024),
  );
  return rows;
}

function describe(page: WrkResult): string {
  return `${int(requestsPerSecond(page))} req/s, p50 ${ms(page.p50Us)}, p99 ${ms(page.p99Us)}, errors ${describeErrors(page)}`;
}

function msOf(milliseconds: number): string {
  return ms(milliseconds * 1000);
}

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(0)} MB`;
}

function powerOfTen(count: number): string {
  const exponent = Math.log10(count);
  return Number.isInteger(exponent) ? `10^${exponent}` : int(count);
}
