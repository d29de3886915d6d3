// What running more than one instance costs and gives, in one run on this machine: one instance
// against three behind a round-robin balancer (PostgreSQL + Redis), the Redis round trip of the
// rate limiter (PostgreSQL with and without REDIS_URL), and PostgreSQL against SQLite (memory
// limits), each for `GET /v1/pets?limit=20` and `POST /v1/pets`, measured with wrk. It also counts
// the CPU each process used per request, because on 2 cores the instances, PostgreSQL, the
// balancer, wrk and the machine's other work all share the same two cores.
// All setups run side by side for the whole bench (idle ones cost nothing), and each load goes
// through them in turn, in BENCH_ROUNDS rounds (3) of alternating order, so that a burst of other
// work on the machine hits one round of a setup, not all of them, and the runs compared are close
// in time; every run is printed, and the comparisons take each setup's best round (its least
// disturbed).
// Under 50 connections every setup is saturated, so its latencies are mostly queueing (p50 is
// about connections / throughput); the single-instance setups are therefore also measured with one
// connection, where a request's latency is its own work and round trips, nothing else.
// BENCH_DURATION sets the seconds per measurement (6), BENCH_ROUNDS the rounds (3), LOG_LEVEL the
// instances' log level (info), TEST_POSTGRES_URL and TEST_REDIS_URL where PostgreSQL and Redis are
// (as for the tests). wrk is the Debian package `wrk`.
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import pg from 'pg';
import { DEFAULT_CONNECT_TIMEOUT_MS } from '../server/storage/postgres/connection.ts';
import { createTestDatabase, POSTGRES_ADMIN_URL, REDIS_TEST_URL } from '../support/backing-services.ts';
import { cpuOf, machineBusy, procTimes } from './proc.ts';
import { fillPostgres, fillSqlite, postgresKey, sqliteKey } from './seed.ts';
import { answerOf, CONNECTIONS, PATH, start, startServer, stop } from './support.ts';
import { describeErrors, errorCount, requireWrk, wrk as runWrk, type WrkResult } from './wrk.ts';

const DURATION_S = Number(process.env.BENCH_DURATION ?? 6);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const WARMUP_S = 2;
const POST_PATH = '/v1/pets';
const POST_BODY = JSON.stringify({ name: 'Bench pet', categoryId: 3 });
const LOG_LEVEL = process.env.LOG_LEVEL ?? 'info';
const BALANCER = fileURLToPath(new URL('./servers/balancer.ts', import.meta.url));

// --- targets (see bench/README.md for why each) ---
/** Three instances behind the balancer against one behind the same balancer. */
const MIN_SCALE_RATIO = 0.9;
/** What the Redis round trip may add to the median latency of a request alone (one connection). */
const MAX_REDIS_P50_ADDED_US = 1_000;
/** Half of the time (1.5 s) a request waits for a PostgreSQL connection before it is answered 503. */
const MAX_POSTGRES_P99_US = (DEFAULT_CONNECT_TIMEOUT_MS / 2) * 1000;

requireWrk();

// --- the backing services ---
async function reach<T>(name: string, variable: string, open: () => Promise<T>): Promise<T> {
  try {
    return await open();
  } catch (error) {
    console.error(
      `${name} is not reachable (${error instanceof Error ? error.message : String(error)}); set ${variable}.`,
    );
    process.exit(1);
  }
}
const redis = new Redis(REDIS_TEST_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
redis.on('error', () => {});
await reach('Redis', 'TEST_REDIS_URL', () => redis.connect());
const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
await reach('PostgreSQL', 'TEST_POSTGRES_URL', () => admin.connect());
const database = await createTestDatabase();
const databaseName = new URL(database.url).pathname.slice(1);
const redisPrefix = `animal-store-bench:${randomBytes(6).toString('hex')}:`;
const dir = mkdtempSync(join(tmpdir(), 'animal-store-bench-'));

/** Our database's backends only (not the other databases' work on the same server). */
async function postgresBackends(): Promise<number[]> {
  const { rows } = await admin.query<{ pid: number }>(
    "SELECT pid FROM pg_stat_activity WHERE datname = $1 AND backend_type = 'client backend'",
    [databaseName],
  );
  return rows.map((row) => row.pid);
}
/** The whole Redis server's CPU seconds: it is shared, so other users' work is in it too (little, here). */
async function redisCpu(): Promise<number> {
  const info = await redis.info('cpu');
  const seconds = (name: string) => Number(new RegExp(`${name}:([\\d.]+)`).exec(info)?.[1] ?? 0);
  return seconds('used_cpu_sys') + seconds('used_cpu_user');
}

// --- one measurement ---
type Route = 'GET' | 'POST';
interface Measurement {
  round: number;
  setup: string;
  route: Route;
  connections: number;
  rps: number;
  p50Us: number;
  p99Us: number;
  errors: number;
  errorText: string;
  /** CPU µs per request. */
  cpu: { instances: number; balancer: number; postgres: number; redis: number; wrk: number };
  /** Cores busy on average: ours (the processes above and this bench) and everything else. */
  cores: { ours: number; others: number };
}

function wrk(url: string, route: Route, connections: number, secret: string, seconds: number): Promise<WrkResult> {
  return runWrk({
    url: `${url}${route === 'GET' ? PATH : POST_PATH}`,
    connections,
    seconds,
    headers: { Authorization: `Bearer ${secret}` },
    body: route === 'POST' ? POST_BODY : undefined,
  });
}

interface Running {
  url: string;
  instances: ChildProcess[];
  balancer?: ChildProcess;
}

async function measure(
  round: number,
  setup: string,
  running: Running,
  route: Route,
  connections: number,
  secret: string,
): Promise<Measurement> {
  await wrk(running.url, route, connections, secret, WARMUP_S);
  const pids = running.instances.map((child) => child.pid ?? 0);
  const balancerPid = running.balancer?.pid ?? 0;
  const backendsBefore = await postgresBackends();
  const before = {
    wall: performance.now(),
    machine: machineBusy(),
    instances: pids.map(cpuOf),
    balancer: balancerPid ? cpuOf(balancerPid) : 0,
    postgres: new Map(backendsBefore.map((pid) => [pid, cpuOf(pid)])),
    redis: await redisCpu(),
    self: procTimes('self') ?? [0, 0, 0, 0],
  };
  const result = await wrk(running.url, route, connections, secret, DURATION_S);
  const self = procTimes('self') ?? [0, 0, 0, 0];
  const wallS = (performance.now() - before.wall) / 1000;
  const machine = machineBusy() - before.machine;
  const backends = new Set([...backendsBefore, ...(await postgresBackends())]);
  // A backend opened during the run started from zero; one closed during it is lost (the pool keeps busy ones).
  let postgres = 0;
  for (const pid of backends) postgres += Math.max(0, cpuOf(pid) - (before.postgres.get(pid) ?? 0));
  const instances = pids.reduce((sum, pid, index) => sum + cpuOf(pid) - (before.instances[index] ?? 0), 0);
  const balancer = balancerPid ? cpuOf(balancerPid) - before.balancer : 0;
  const redisUsed = (await redisCpu()) - before.redis;
  // wrk is the only child reaped during the run, so it is what the children's times grew by.
  const wrkCpu = (self[2] ?? 0) + (self[3] ?? 0) - (before.self[2] ?? 0) - (before.self[3] ?? 0);
  const bench = (self[0] ?? 0) + (self[1] ?? 0) - (before.self[0] ?? 0) - (before.self[1] ?? 0);
  const ours = instances + balancer + postgres + wrkCpu + bench;
  const perRequest = (seconds: number) => (seconds * 1e6) / result.requests;
  return {
    round,
    setup,
    route,
    connections,
    rps: result.requests / (result.durationUs / 1e6),
    p50Us: result.p50Us,
    p99Us: result.p99Us,
    errors: errorCount(result),
    errorText: describeErrors(result),
    cpu: {
      instances: perRequest(instances),
      balancer: perRequest(balancer),
      postgres: perRequest(postgres),
      redis: perRequest(redisUsed),
      wrk: perRequest(wrkCpu),
    },
    cores: { ours: ours / wallS, others: Math.max(0, machine - ours - redisUsed) / wallS },
  };
}

// --- the setups ---
async function launch(count: number, env: Record<string, string>, balanced: boolean): Promise<Running> {
  const running: Running = { url: '', instances: [] };
  try {
    const results = await Promise.allSettled(Array.from({ length: count }, () => startServer({ LOG_LEVEL, ...env })));
    const started = results.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    running.instances = started.map((instance) => instance.child);
    const failure = results.find((result) => result.status === 'rejected');
    if (failure !== undefined) throw failure.reason;
    running.url = started[0]?.url ?? '';
    if (balanced) {
      const targets = started.map((instance) => new URL(instance.url).host).join(',');
      const balancer = await start(BALANCER, { BALANCER_TARGETS: targets });
      running.balancer = balancer.child;
      running.url = balancer.url;
    }
    return running;
  } catch (error) {
    await halt(running);
    throw error;
  }
}

async function halt(running: Running): Promise<void> {
  await Promise.all(
    [...running.instances, ...(running.balancer ? [running.balancer] : [])].map((child) => stop(child)),
  );
}

/** Both routes answer as the load expects (200 and 201) before any load is put on them. */
async function check(url: string, secret: string): Promise<void> {
  const authorization = `Bearer ${secret}`;
  await answerOf(url, { headers: { Authorization: authorization } });
  const created = await fetch(`${url}${POST_PATH}`, {
    method: 'POST',
    headers: { Authorization: authorization, 'Content-Type': 'application/json' },
    body: POST_BODY,
  });
  if (created.status !== 201) throw new Error(`POST ${POST_PATH} answered ${created.status}: ${await created.text()}`);
}

const SQLITE = 'SQLite, memory limits, 1 instance';
const POSTGRES = 'PostgreSQL, memory limits, 1 instance';
const REDIS = 'PostgreSQL + Redis, 1 instance';
const ONE_BALANCED = 'PostgreSQL + Redis, 1 instance behind the balancer';
const THREE_BALANCED = 'PostgreSQL + Redis, 3 instances behind the balancer';
const ROUTES = ['GET', 'POST'] as const;

const measurements: Measurement[] = [];
const loadBefore = loadavg();
let failed = false;
try {
  const sqlitePath = join(dir, 'bench.db');
  const sqliteSecret = await sqliteKey(sqlitePath);
  fillSqlite(sqlitePath, 100);
  const postgresSecret = await postgresKey(database.url);
  await fillPostgres(database.url, 100);

  const onPostgres = { DATABASE_URL: database.url, DATABASE_PATH: join(dir, 'unused.db') };
  const withRedis = { ...onPostgres, REDIS_URL: REDIS_TEST_URL, REDIS_KEY_PREFIX: redisPrefix };
  // `loads`: the connection counts each route is measured with.
  const setups = [
    {
      name: SQLITE,
      count: 1,
      balanced: false,
      secret: sqliteSecret,
      env: { DATABASE_PATH: sqlitePath },
      loads: [CONNECTIONS, 1],
    },
    { name: POSTGRES, count: 1, balanced: false, secret: postgresSecret, env: onPostgres, loads: [CONNECTIONS, 1] },
    { name: REDIS, count: 1, balanced: false, secret: postgresSecret, env: withRedis, loads: [CONNECTIONS, 1] },
    { name: ONE_BALANCED, count: 1, balanced: true, secret: postgresSecret, env: withRedis, loads: [CONNECTIONS] },
    { name: THREE_BALANCED, count: 3, balanced: true, secret: postgresSecret, env: withRedis, loads: [CONNECTIONS] },
  ];
  console.log(
    `wrk, 1 thread; GET ${PATH} and POST ${POST_PATH} ${POST_BODY}; ${CONNECTIONS} connections for ` +
      `${DURATION_S} s, or 1 connection for ${DURATION_S} s, after a ${WARMUP_S} s warm-up; ` +
      `${ROUNDS} rounds; LOG_LEVEL=${LOG_LEVEL}; 100 pets to start with; PostgreSQL pool ${process.env.DATABASE_POOL_SIZE || 10} per instance.`,
  );
  console.log(
    `load average before: ${loadBefore.map((value) => value.toFixed(2)).join(', ')} (2 cores; other work runs on this machine)`,
  );
  // Every setup runs from the start to the end, and each load (route and connections) goes through
  // the setups one after the other, in reverse order every other round: the runs compared with
  // each other are minutes closer in time than whole setups one after the other would be.
  const running: Running[] = [];
  try {
    for (const setup of setups) {
      // Empty values count as unset, so a DATABASE_URL or REDIS_URL of the calling shell cannot leak in.
      const started = await launch(setup.count, { DATABASE_URL: '', REDIS_URL: '', ...setup.env }, setup.balanced);
      running.push(started);
      await check(started.url, setup.secret);
    }
    for (let round = 1; round <= ROUNDS; round += 1) {
      for (const connections of [CONNECTIONS, 1]) {
        for (const route of ROUTES) {
          const order = setups.map((setup, index) => ({ setup, running: running[index] }));
          if (round % 2 === 0) order.reverse();
          for (const { setup, running: target } of order) {
            if (target === undefined || !setup.loads.includes(connections)) continue;
            const m = await measure(round, setup.name, target, route, connections, setup.secret);
            measurements.push(m);
            console.log(
              `  round ${round}, ${setup.name}, ${route}, ${connections} conn.: ${int(m.rps)} req/s, ` +
                `p50 ${ms(m.p50Us)} ms, p99 ${ms(m.p99Us)} ms, errors ${m.errorText}, load ${loadavg()[0]?.toFixed(2)}`,
            );
          }
        }
      }
    }
  } finally {
    await Promise.all(running.map(halt));
  }
} catch (error) {
  failed = true;
  console.error(error);
} finally {
  await database.drop().catch((error: unknown) => console.error('Could not drop the database:', error));
  await admin.end();
  const leftOver: string[] = [];
  for await (const names of redis.scanStream({ match: `${redisPrefix}*`, count: 1000 })) leftOver.push(...names);
  if (leftOver.length > 0) await redis.unlink(...leftOver);
  redis.disconnect();
  rmSync(dir, { recursive: true, force: true });
}

// --- the figures ---
function ms(us: number): string {
  return (us / 1000).toFixed(us < 10_000 ? 2 : 1);
}
function int(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}
/** A setup's best round under a load: the one least disturbed by the machine's other work. */
function best(setup: string, route: Route, connections = CONNECTIONS): Measurement {
  const found = measurements
    .filter((m) => m.setup === setup && m.route === route && m.connections === connections)
    .reduce<Measurement | undefined>((top, m) => (top === undefined || m.rps > top.rps ? m : top), undefined);
  if (found === undefined) throw new Error(`No measurement of ${setup}, ${route}, ${connections} connections.`);
  return found;
}

if (!failed) {
  console.log('\nEvery run; CPU per request by process, and the cores busy on average during the run:\n');
  console.log(
    '| round | setup | route | conn. | req/s | p50 ms | p99 ms | errors | CPU µs/req: instances | balancer | PostgreSQL | Redis | wrk | cores busy: ours | others |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const m of measurements) {
    const { cpu } = m;
    console.log(
      `| ${m.round} | ${m.setup} | ${m.route} | ${m.connections} | ${int(m.rps)} | ${ms(m.p50Us)} | ${ms(m.p99Us)} | ${m.errorText} | ` +
        `${int(cpu.instances)} | ${int(cpu.balancer)} | ${int(cpu.postgres)} | ${int(cpu.redis)} | ${int(cpu.wrk)} | ` +
        `${m.cores.ours.toFixed(2)} | ${m.cores.others.toFixed(2)} |`,
    );
  }
  console.log(`\nEach setup's best round of ${ROUNDS} (the comparisons below use these), and every round's req/s:\n`);
  console.log('| setup | route | conn. | req/s | p50 ms | p99 ms | req/s of each round | CPU µs/req, all processes |');
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
  const seen = new Set<string>();
  for (const { setup, route, connections } of measurements) {
    const name = `${setup} ${route} ${connections}`;
    if (seen.has(name)) continue;
    seen.add(name);
    const top = best(setup, route, connections);
    const rounds = measurements.filter((m) => m.setup === setup && m.route === route && m.connections === connections);
    const cpu = Object.values(top.cpu).reduce((sum, value) => sum + value, 0);
    console.log(
      `| ${setup} | ${route} | ${connections} | ${int(top.rps)} | ${ms(top.p50Us)} | ${ms(top.p99Us)} | ` +
        `${rounds.map((m) => int(m.rps)).join(', ')} | ${int(cpu)} |`,
    );
  }

  const verdicts: boolean[] = [];
  const target = (label: string, met: boolean) => {
    verdicts.push(met);
    console.log(`  ${label}: ${met ? 'MET' : 'MISSED'}`);
  };

  console.log('\nEvery run answers every request (the key cannot reach its limits):');
  target(
    `0 socket errors and 0 answers >= 400 in all ${measurements.length} runs`,
    measurements.every((m) => m.errors === 0),
  );
  console.log(`\nThe comparisons take each setup's best round of ${ROUNDS}.`);

  console.log(
    `\n1. One instance against three behind the round-robin balancer (PostgreSQL + Redis, ${CONNECTIONS} connections):`,
  );
  for (const route of ROUTES) {
    const direct = best(REDIS, route);
    const one = best(ONE_BALANCED, route);
    const three = best(THREE_BALANCED, route);
    const instancesCpu = (m: Measurement) => `${int(m.cpu.instances)} µs`;
    console.log(
      `  ${route}: 1 direct ${int(direct.rps)} req/s (p99 ${ms(direct.p99Us)} ms), 1 balanced ${int(one.rps)} ` +
        `(p99 ${ms(one.p99Us)} ms), 3 balanced ${int(three.rps)} (p99 ${ms(three.p99Us)} ms); ` +
        `3 / 1 balanced ${(three.rps / one.rps).toFixed(2)}, 3 balanced / 1 direct ${(three.rps / direct.rps).toFixed(2)}; ` +
        `instances' CPU per request ${instancesCpu(one)} (1) and ${instancesCpu(three)} (3); the balancer ${int(one.cpu.balancer)} µs`,
    );
    target(
      `  ${route}: three instances answer every request (0 errors in every round)`,
      measurements.every((m) => m.setup !== THREE_BALANCED || m.route !== route || m.errors === 0),
    );
    target(
      `  ${route}: three instances >= ${MIN_SCALE_RATIO} x one behind the same balancer (${(three.rps / one.rps).toFixed(2)})`,
      three.rps >= MIN_SCALE_RATIO * one.rps,
    );
  }

  console.log('\n2. The Redis round trip of the rate limiter (1 instance on PostgreSQL, REDIS_URL set or not):');
  for (const route of ROUTES) {
    const memory = best(POSTGRES, route);
    const shared = best(REDIS, route);
    const memoryAlone = best(POSTGRES, route, 1);
    const sharedAlone = best(REDIS, route, 1);
    const added = sharedAlone.p50Us - memoryAlone.p50Us;
    console.log(
      `  ${route}, ${CONNECTIONS} connections: ${int(memory.rps)} req/s without, ${int(shared.rps)} with: ` +
        `${(1e6 / shared.rps - 1e6 / memory.rps).toFixed(0)} µs more per request (1 / throughput); instance CPU ` +
        `${int(shared.cpu.instances - memory.cpu.instances)} µs/req more, Redis ${int(shared.cpu.redis)} µs/req`,
    );
    console.log(
      `  ${route}, 1 connection: p50 ${ms(memoryAlone.p50Us)} ms without, ${ms(sharedAlone.p50Us)} ms with: ` +
        `${added.toFixed(0)} µs added; ${int(memoryAlone.rps)} and ${int(sharedAlone.rps)} req/s`,
    );
    target(
      `  ${route}: Redis adds < ${MAX_REDIS_P50_ADDED_US / 1000} ms at p50, 1 connection (${ms(added)} ms)`,
      added < MAX_REDIS_P50_ADDED_US,
    );
  }

  console.log('\n3. PostgreSQL against SQLite (1 instance, memory limits):');
  for (const route of ROUTES) {
    const sqlite = best(SQLITE, route);
    const postgres = best(POSTGRES, route);
    const sqliteAlone = best(SQLITE, route, 1);
    const postgresAlone = best(POSTGRES, route, 1);
    console.log(
      `  ${route}, ${CONNECTIONS} connections: SQLite ${int(sqlite.rps)} req/s (p50 ${ms(sqlite.p50Us)}, p99 ${ms(sqlite.p99Us)} ms), ` +
        `PostgreSQL ${int(postgres.rps)} (p50 ${ms(postgres.p50Us)}, p99 ${ms(postgres.p99Us)} ms); PostgreSQL / SQLite ` +
        `${(postgres.rps / sqlite.rps).toFixed(2)}`,
    );
    console.log(
      `  ${route}, 1 connection: p50 SQLite ${ms(sqliteAlone.p50Us)} ms, PostgreSQL ${ms(postgresAlone.p50Us)} ms ` +
        `(${(postgresAlone.p50Us - sqliteAlone.p50Us).toFixed(0)} µs more)`,
    );
    target(
      `  ${route}: PostgreSQL answers every request with p99 < ${MAX_POSTGRES_P99_US / 1000} ms under ${CONNECTIONS} connections, half the pool wait before a 503 (${ms(postgres.p99Us)} ms)`,
      measurements.every((m) => m.setup !== POSTGRES || m.route !== route || m.errors === 0) &&
        postgres.p99Us < MAX_POSTGRES_P99_US,
    );
  }
  failed = verdicts.includes(false);
}
console.log(
  `\nload average after: ${loadavg()
    .map((value) => value.toFixed(2))
    .join(', ')}`,
);
process.exitCode = failed ? 1 : 0;
