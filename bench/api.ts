// Rows 1 and 2 of the bench: the full stack (the server as `npm start` runs it, compiled: request id, access
// log, key lookup, rate limit, authentication, routing, validation, storage, JSON) against a bare
// Hono app answering the same bytes from constants, for a page of 20 pets, one pet and a new pet;
// on SQLite and, where they run, on PostgreSQL + Redis. The servers run side by side and each
// route's load goes through them in turn, in rounds of alternating order, so that a burst of other
// work on the machine spoils one round of a server, not all of them; each takes its best round.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BackingEnv, backingServicesMissing, withBackingServices } from './backing.ts';
import { fillPostgres, fillSqlite, postgresKey, sqliteKey } from './seed.ts';
import type { BareAnswer } from './servers/bare.ts';
import { answerOf, CONNECTIONS, PATH, startCompiled, startServer, stop } from './support.ts';
import { int, judged, ms, type Row, reference, skipped } from './table.ts';
import { describeErrors, errorCount, requestsPerSecond, type WrkResult, wrk } from './wrk.ts';

const BARE = fileURLToPath(new URL('./servers/bare.ts', import.meta.url));
const PEER = fileURLToPath(new URL('./servers/fastify-peer.ts', import.meta.url));
/** The peer (bench/servers/fastify-peer.ts) serves the page of pets only; ours must do at least this much better. */
const MIN_PEER_RATIO = 1.5;
/** PostgreSQL + Redis against SQLite for the page of pets, in the same rounds (issue 34), its p99 too (issue 42). */
const MIN_SCALE_OUT_RATIO = 0.6;
const MAX_SCALE_OUT_P99_RATIO = 2;
/** A create with an Idempotency-Key against the same create without one. */
const MIN_IDEMPOTENCY_RATIO = 0.8;
/** The page of pets with METRICS_PORT set against the same server without it. */
const MIN_METRICS_RATIO = 0.95;
const PETS = 100;

interface Route {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  status: 200 | 201;
  body?: string;
  /** Of the bare app's req/s for the same answer. */
  minRatio: number;
  /** Of the bare app's p99 in the same run: tails are judged against the machine's own (issue 42). */
  maxP99Ratio: number;
  /** Every request with an Idempotency-Key of its own; compared with the same route without it. */
  idempotencyKeys?: boolean;
}

const ROUTES: Route[] = [
  { name: `GET ${PATH}`, method: 'GET', path: PATH, status: 200, minRatio: 0.6, maxP99Ratio: 3 },
  { name: 'GET /v1/pets/{petId}', method: 'GET', path: '/v1/pets/7', status: 200, minRatio: 0.6, maxP99Ratio: 3 },
  {
    name: 'POST /v1/pets',
    method: 'POST',
    path: '/v1/pets',
    status: 201,
    body: JSON.stringify({ name: 'Bench pet', categoryId: 3 }),
    minRatio: 0.4,
    maxP99Ratio: 3,
  },
  {
    name: 'POST /v1/pets with Idempotency-Key',
    method: 'POST',
    path: '/v1/pets',
    status: 201,
    body: JSON.stringify({ name: 'Bench pet', categoryId: 3 }),
    minRatio: 0.4,
    maxP99Ratio: 3,
    idempotencyKeys: true,
  },
];

/** The same route without Idempotency-Key: the bare app's answer for it, and what the key's cost is measured against. */
function plainOf(route: Route): Route {
  if (!route.idempotencyKeys) return route;
  const plain = ROUTES.find(
    (other) => !other.idempotencyKeys && other.method === route.method && other.path === route.path,
  );
  if (!plain) throw new Error(`No route ${route.method} ${route.path} without Idempotency-Key to compare with.`);
  return plain;
}

/** The routes the bare app answers: one per method and path. */
const BARE_ROUTES = ROUTES.filter((route) => !route.idempotencyKeys);

export interface ApiOptions {
  /** Seconds per measured run. */
  seconds: number;
  rounds: number;
  warmupSeconds: number;
  log: (line: string) => void;
}

/** The request of a route, as answerOf takes it. */
const requestOf = ({ method, path, status, body }: Route, headers: Record<string, string>) => ({
  method,
  path,
  status,
  body,
  headers,
});

interface Server {
  name: string;
  url: string;
  headers: Record<string, string>;
  /** The one route it serves, when it does not serve them all. */
  only?: string;
}

export async function apiRows(options: ApiOptions): Promise<Row[]> {
  const missing = await backingServicesMissing();
  if (missing !== undefined) return await measure(options, undefined, missing);
  return await withBackingServices((env) => measure(options, env, undefined));
}

async function measure(options: ApiOptions, backing: BackingEnv | undefined, missing: string | undefined) {
  const { log } = options;
  const dir = mkdtempSync(join(tmpdir(), 'animal-store-bench-'));
  const children: ChildProcess[] = [];
  try {
    const databasePath = join(dir, 'bench.db');
    const sqliteSecret = await sqliteKey(databasePath);
    fillSqlite(databasePath, PETS);
    // BENCH_PROFILE=<dir> writes a CPU profile of the SQLite full stack there, to see where its time goes.
    const profile = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];
    const logLevel = process.env.LOG_LEVEL ?? 'info';
    // Empty values count as unset, so a DATABASE_URL or REDIS_URL of the calling shell cannot leak in.
    const sqlite = await startServer(
      { DATABASE_PATH: databasePath, DATABASE_URL: '', REDIS_URL: '', LOG_LEVEL: logLevel },
      profile,
    );
    children.push(sqlite.child);
    const servers: Server[] = [
      { name: 'SQLite', url: sqlite.url, headers: { Authorization: `Bearer ${sqliteSecret}` } },
    ];
    // The same server with its Prometheus listener: what the metrics cost the page of pets.
    const metered = await startServer({
      DATABASE_PATH: databasePath,
      DATABASE_URL: '',
      REDIS_URL: '',
      LOG_LEVEL: logLevel,
      METRICS_PORT: '0',
    });
    children.push(metered.child);

    // The bare app answers with the same bytes: the same status, body and headers (with the values
    // of the full stack's first answers), so the ratio measures the service's work, not a bigger answer.
    const answers: BareAnswer[] = [];
    for (const route of BARE_ROUTES) {
      const answer = await answerOf(sqlite.url, requestOf(route, servers[0]?.headers ?? {}));
      answers.push({ method: route.method, path: route.path, status: route.status, ...answer });
    }
    const bare = await startCompiled(BARE, { BENCH_ANSWERS: JSON.stringify(answers) });
    children.push(bare.child);
    for (const [index, route] of BARE_ROUTES.entries()) {
      const answer = await answerOf(bare.url, requestOf(route, {}));
      const expected = answers[index];
      if (JSON.stringify(answer) !== JSON.stringify({ body: expected?.body, headers: expected?.headers }))
        throw new Error(`The bare app does not answer ${route.name} with the full stack's bytes.`);
    }
    servers.push({ name: 'bare', url: bare.url, headers: {} });

    const peer = await startCompiled(PEER, { DATABASE_PATH: databasePath });
    children.push(peer.child);
    const sqliteHeaders = servers[0]?.headers ?? {};
    await answerOf(peer.url, { headers: sqliteHeaders });
    servers.push({ name: 'Fastify peer', url: peer.url, headers: sqliteHeaders, only: ROUTES[0]?.name });
    servers.push({ name: 'SQLite with METRICS_PORT', url: metered.url, headers: sqliteHeaders, only: ROUTES[0]?.name });

    if (backing !== undefined) {
      const postgresSecret = await postgresKey(backing.DATABASE_URL);
      await fillPostgres(backing.DATABASE_URL, PETS);
      const postgres = await startServer({ ...backing, DATABASE_PATH: join(dir, 'unused.db'), LOG_LEVEL: logLevel });
      children.push(postgres.child);
      const headers = { Authorization: `Bearer ${postgresSecret}` };
      for (const route of ROUTES) await answerOf(postgres.url, requestOf(route, headers));
      servers.push({ name: 'PostgreSQL + Redis', url: postgres.url, headers });
    }

    const load = (server: Server, route: Route, seconds: number) =>
      wrk({
        url: `${server.url}${route.path}`,
        connections: CONNECTIONS,
        seconds,
        headers: server.headers,
        body: route.body,
        idempotencyKeys: route.idempotencyKeys,
      });
    // Warm every server on every route (JIT, the full stack's caches) before measuring any; a
    // server's routes at once, since nothing is measured yet.
    const serves = (server: Server, route: Route) => server.only === undefined || server.only === route.name;
    for (const server of servers) {
      await Promise.all(
        ROUTES.filter((route) => serves(server, route)).map((route) => load(server, route, options.warmupSeconds)),
      );
    }

    const runs = new Map<string, WrkResult[]>();
    for (let round = 1; round <= options.rounds; round += 1) {
      for (const route of ROUTES) {
        const order = round % 2 === 0 ? [...servers].reverse() : servers;
        for (const server of order.filter((server) => serves(server, route))) {
          const result = await load(server, route, options.seconds);
          const key = `${server.name} ${route.name}`;
          runs.set(key, [...(runs.get(key) ?? []), result]);
          log(
            `  round ${round}, ${server.name}, ${route.name}: ${int(requestsPerSecond(result))} req/s, ` +
              `p99 ${ms(result.p99Us)}, errors ${describeErrors(result)}`,
          );
        }
      }
    }

    const rows: Row[] = [];
    for (const route of ROUTES) {
      const all = (server: string) => runs.get(`${server} ${route.name}`) ?? [];
      // The best round: the one least disturbed by the machine's other work.
      const best = (server: string) =>
        all(server).reduce((top, run) => (requestsPerSecond(run) > requestsPerSecond(top) ? run : top));
      const bestOf = (server: string, of: Route) =>
        (runs.get(`${server} ${of.name}`) ?? []).reduce((top, run) =>
          requestsPerSecond(run) > requestsPerSecond(top) ? run : top,
        );
      // The bare app ignores the header: the key's route is compared with its plain answer.
      const bareBest = bestOf('bare', plainOf(route));
      const bareRps = requestsPerSecond(bareBest);
      if (!route.idempotencyKeys)
        rows.push(
          reference(`bare Hono, same answer: ${route.name}`, `${int(bareRps)} req/s, p99 ${ms(bareBest.p99Us)}`),
        );
      for (const engine of ['SQLite', 'PostgreSQL + Redis']) {
        const ratioFigure = `${engine}: ${route.name}, req/s / bare`;
        const p99Figure = `${engine}: ${route.name}, p99 / bare p99`;
        const ratioTarget = `≥ ${route.minRatio}`;
        const p99Target = `≤ ${route.maxP99Ratio}`;
        if (!servers.some((server) => server.name === engine)) {
          rows.push(skipped(ratioFigure, ratioTarget, missing ?? ''), skipped(p99Figure, p99Target, missing ?? ''));
          continue;
        }
        const top = best(engine);
        const errors = all(engine).reduce((sum, run) => sum + errorCount(run), 0);
        const ratio = requestsPerSecond(top) / bareRps;
        rows.push(
          judged(
            ratioFigure,
            `${ratio.toFixed(2)} (${int(requestsPerSecond(top))} req/s${errors > 0 ? `; ${errors} errors` : ''})`,
            ratioTarget,
            ratio >= route.minRatio && errors === 0,
          ),
          judged(
            p99Figure,
            `${(top.p99Us / bareBest.p99Us).toFixed(2)} (${ms(top.p99Us)} against ${ms(bareBest.p99Us)})`,
            p99Target,
            top.p99Us <= route.maxP99Ratio * bareBest.p99Us,
          ),
        );
        if (route.idempotencyKeys) {
          // The cost of the key: a lookup before the create and a row written in its commit.
          const plain = bestOf(engine, plainOf(route));
          const keyRatio = requestsPerSecond(top) / requestsPerSecond(plain);
          rows.push(
            judged(
              `${engine}: ${route.name}, req/s / without it`,
              `${keyRatio.toFixed(2)} (p99 ${ms(top.p99Us)} against ${ms(plain.p99Us)})`,
              `≥ ${MIN_IDEMPOTENCY_RATIO}`,
              keyRatio >= MIN_IDEMPOTENCY_RATIO,
            ),
          );
        }
      }
      /** The ratio of `server`'s req/s to `other`'s in each round (the runs seconds apart), worst first. */
      const roundRatios = (server: string, other: string) =>
        all(server)
          .map((run, round) => requestsPerSecond(run) / requestsPerSecond(all(other)[round] ?? run))
          .sort((a, b) => a - b);
      const peerServer = servers.find((server) => server.name === 'Fastify peer');
      if (peerServer && serves(peerServer, route)) {
        const peerBest = best(peerServer.name);
        // In every round, not in the best one: the worst round is judged.
        const ratios = roundRatios('SQLite', peerServer.name);
        const worst = ratios[0] ?? 0;
        rows.push(
          reference(
            `Fastify peer: ${route.name}`,
            `${int(requestsPerSecond(peerBest))} req/s, p99 ${ms(peerBest.p99Us)}`,
          ),
          judged(
            `SQLite: ${route.name}, req/s / Fastify peer, worst round`,
            `${worst.toFixed(2)} (rounds: ${ratios.map((ratio) => ratio.toFixed(2)).join(', ')})`,
            `≥ ${MIN_PEER_RATIO}`,
            worst >= MIN_PEER_RATIO,
          ),
        );
      }
      const meteredServer = servers.find((server) => server.name === 'SQLite with METRICS_PORT');
      if (meteredServer && serves(meteredServer, route)) {
        const ratio = requestsPerSecond(best(meteredServer.name)) / requestsPerSecond(best('SQLite'));
        rows.push(
          judged(
            `SQLite with METRICS_PORT: ${route.name}, req/s / without it`,
            `${ratio.toFixed(2)} (${int(requestsPerSecond(best(meteredServer.name)))} req/s)`,
            `≥ ${MIN_METRICS_RATIO}`,
            ratio >= MIN_METRICS_RATIO,
          ),
        );
      }
      if (route === ROUTES[0]) {
        const ratioFigure = `PostgreSQL + Redis: ${route.name}, req/s / SQLite`;
        const p99Figure = `PostgreSQL + Redis: ${route.name}, p99 / SQLite p99`;
        if (servers.some((server) => server.name === 'PostgreSQL + Redis')) {
          const top = best('PostgreSQL + Redis');
          const ratio = requestsPerSecond(top) / requestsPerSecond(best('SQLite'));
          rows.push(
            judged(
              ratioFigure,
              `${ratio.toFixed(2)} (rounds: ${roundRatios('PostgreSQL + Redis', 'SQLite')
                .map((each) => each.toFixed(2))
                .join(', ')})`,
              `≥ ${MIN_SCALE_OUT_RATIO}`,
              ratio >= MIN_SCALE_OUT_RATIO,
            ),
            judged(
              p99Figure,
              `${(top.p99Us / best('SQLite').p99Us).toFixed(2)} (${ms(top.p99Us)} against ${ms(best('SQLite').p99Us)})`,
              `≤ ${MAX_SCALE_OUT_P99_RATIO}`,
              top.p99Us <= MAX_SCALE_OUT_P99_RATIO * best('SQLite').p99Us,
            ),
          );
        } else
          rows.push(
            skipped(ratioFigure, `≥ ${MIN_SCALE_OUT_RATIO}`, missing ?? ''),
            skipped(p99Figure, `≤ ${MAX_SCALE_OUT_P99_RATIO}`, missing ?? ''),
          );
      }
    }
    return rows;
  } finally {
    // The profile is written as the process exits.
    await Promise.all(children.map((child) => stop(child)));
    rmSync(dir, { recursive: true, force: true });
  }
}
