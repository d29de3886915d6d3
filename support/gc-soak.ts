// The server (compiled, as `npm start` runs it, or its sources) under mixed load while V8 collects
// garbage as often as it can, between tasks as well as inside them. better-sqlite3 12 aborts Node 24
// (from 24.19) when a collection finalizes one of its statements or databases outside JavaScript
// (WiseLibs/better-sqlite3#1515: `RemoveEnvironmentCleanupHook ... Assertion failed`); version 13,
// which fixes it, needs Node 22 and crashes on Node 20, which the project still supports. So the
// server keeps every statement and database it makes; a soak shows it: the process must still be
// running at the end and stop cleanly. `control` preloads a module that drops a statement every
// millisecond, as a server calling `db.pragma()` per request would, to show the soak catches it.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export interface SoakOptions {
  /** The repository whose server and node_modules are run. */
  root: string;
  /**
   * `compiled`: dist/runtime, as `npm start` runs it (built beforehand); `source`: the TypeScript
   * through tsx, the same code without a build.
   */
  runtime: 'compiled' | 'source';
  /** The Node.js binary; this process's by default. */
  node?: string;
  /** The SQLite file of the run (a fresh one). */
  databasePath: string;
  /** How long the load runs. */
  seconds: number;
  /** Also preload the control, which drops a better-sqlite3 statement every millisecond. */
  control?: boolean;
}

export interface SoakResult {
  /** How the server ended: code 0 after SIGTERM, or the signal that killed it (SIGABRT on an abort). */
  exit: { code: number | null; signal: NodeJS.Signals | null };
  /** Whether the server was still running when the load ended. */
  aliveAtEnd: boolean;
  /** Answers by kind of request and status, e.g. `create 201`. */
  answers: Record<string, number>;
  /** Answers of status 500 or more, and requests that got no answer. */
  failures: string[];
  /** Full (mark-compact) collections the server ran, as its own performance observer counted them. */
  majorCollections: number;
  stderr: string;
}

/**
 * Garbage every few milliseconds, so that V8 collects often, and a full collection requested as a
 * task of its own every 50 ms; the memory reducer, which collects from a platform task with no
 * JavaScript running, starts 20 ms after the heap stops growing instead of 8 s. Reports on stderr,
 * at exit, how many full collections ran.
 */
const GC_PRESSURE = `
import { PerformanceObserver, constants } from 'node:perf_hooks';
let majors = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) if (entry.detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) majors++;
}).observe({ entryTypes: ['gc'] });
process.on('exit', () => process.stderr.write('gc-soak: ' + majors + ' major collections\\n'));
const kept = [];
let burst = 0;
setInterval(() => { kept[burst++ % 20] = Array.from({ length: 1000 }, (_, i) => new Array(100).fill(i)); }, 10).unref();
`;

/** The regression the soak is for: a statement prepared and dropped, over and over. */
function controlModule(root: string): string {
  const requireFrom = pathToFileURL(path.join(root, 'package.json')).href;
  return `
import { createRequire } from 'node:module';
const Database = createRequire(${JSON.stringify(requireFrom)})('better-sqlite3');
const db = new Database(':memory:');
setInterval(() => {
  const statement = db.prepare('SELECT 1');
  // Used again a little later, as a request's statement is across an await; then dropped.
  setTimeout(() => statement.get(), 30).unref();
}, 1).unref();
`;
}

const dataModule = (source: string) => `data:text/javascript,${encodeURIComponent(source)}`;

export async function soakServer(options: SoakOptions): Promise<SoakResult> {
  const { root, databasePath, seconds } = options;
  const node = options.node ?? process.execPath;
  /** The node arguments that run a program of server/, by its path there without extension. */
  const program = (entry: string) =>
    options.runtime === 'compiled'
      ? [path.join(root, 'dist', 'runtime', 'server', `${entry}.js`)]
      : ['--import', 'tsx', path.join(root, 'server', `${entry}.ts`)];
  const env = { ...process.env, DATABASE_PATH: databasePath, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'warn' };
  const createKey = (plan: string[]) =>
    execFileSync(node, [...program('tools/keys-cli'), 'create', ...plan], { env, encoding: 'utf8', cwd: root })
      .trim()
      .split('\n')
      .at(-1) ?? '';
  const key = createKey(['--plan', 'enterprise', '--per-minute', '100000000', '--per-day', '1000000000']);

  const child = spawn(
    node,
    [
      '--expose-gc',
      '--gc-memory-reducer-start-delay-ms=20',
      '--max-semi-space-size=1',
      '--import',
      dataModule(GC_PRESSURE),
      ...(options.control ? ['--import', dataModule(controlModule(root))] : []),
      ...program('process/main'),
    ],
    { env, stdio: ['ignore', 'pipe', 'pipe'], cwd: root },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = once(child, 'exit').then(([code, signal]) => ({
    code: code as number | null,
    signal: signal as NodeJS.Signals | null,
  }));
  // 'close' follows the last output, which 'exit' may not.
  const closed = once(child, 'close');
  const origin = await new Promise<string | undefined>((resolve) => {
    const onData = () => {
      const found = /listening on (http:\/\/\S+)\/v1/.exec(stdout)?.[1];
      if (found) {
        child.stdout.off('data', onData);
        resolve(found);
      }
    };
    child.stdout.on('data', onData);
    void exited.then(() => resolve(undefined));
  });

  const load = origin ? await mixedLoad(origin, key, seconds, () => isRunning(child), createKey) : undefined;
  const aliveAtEnd = isRunning(child);
  if (aliveAtEnd) child.kill('SIGTERM');
  const exit = await exited;
  await closed;
  return {
    exit,
    aliveAtEnd,
    answers: load?.answers ?? {},
    failures: load?.failures ?? [`the server exited before listening: ${stdout}`],
    majorCollections: Number(/gc-soak: (\d+) major collections/.exec(stderr)?.[1] ?? 0),
    stderr,
  };
}

function isRunning(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}

/**
 * Eight clients at once, each sending a random mix of what reaches SQLite at run time: creates in
 * group commits, with and without an Idempotency-Key (and repeats, which are replayed), orders of
 * stored pets, pages with and without a filter and the next page, items, readiness (a write in a
 * transaction), unknown keys; halfway, the keys tool adds a key (a commit by another process,
 * which empties the read caches) that is then used. Stops early once the server is gone.
 */
async function mixedLoad(
  origin: string,
  key: string,
  seconds: number,
  running: () => boolean,
  createKey: (plan: string[]) => string,
): Promise<{ answers: Record<string, number>; failures: string[] }> {
  const answers: Record<string, number> = {};
  const failures: string[] = [];
  const petIds: number[] = [];
  const idempotencyKeys: string[] = [];
  const keys = [key];
  const deadline = performance.now() + seconds * 1000;
  const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)] as T;

  const send = async (kind: string, pathAndQuery: string, init: RequestInit = {}, apiKey = pick(keys)) => {
    try {
      const response = await fetch(`${origin}${pathAndQuery}`, {
        ...init,
        headers: {
          ...(apiKey !== '' && { Authorization: `Bearer ${apiKey}` }),
          ...(init.body !== undefined && { 'Content-Type': 'application/json' }),
          ...init.headers,
        },
      });
      const text = await response.text();
      answers[`${kind} ${response.status}`] = (answers[`${kind} ${response.status}`] ?? 0) + 1;
      if (response.status >= 500) failures.push(`${kind} ${pathAndQuery}: ${response.status} ${text.slice(0, 200)}`);
      return { response, text };
    } catch (error) {
      if (running())
        failures.push(`${kind} ${pathAndQuery}: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    }
  };

  const requests: Array<() => Promise<unknown>> = [
    async () => {
      const sent = await send('create', '/v1/pets', {
        method: 'POST',
        body: JSON.stringify({ name: `Soak ${Math.random()}`, categoryId: 1, status: pick(['available', 'pending']) }),
      });
      if (sent?.response.status === 201) petIds.push((JSON.parse(sent.text) as { id: number }).id);
    },
    async () => {
      // A new key most of the time, else one sent before: its first answer comes back.
      const idempotencyKey =
        idempotencyKeys.length > 0 && Math.random() < 0.3 ? pick(idempotencyKeys) : crypto.randomUUID();
      idempotencyKeys.push(idempotencyKey);
      await send('idempotent create', '/v1/pets', {
        method: 'POST',
        headers: { 'Idempotency-Key': idempotencyKey },
        body: JSON.stringify({ name: `Soak ${idempotencyKey}`, categoryId: 2 }),
      });
    },
    async () => {
      if (petIds.length === 0) return;
      await send('order', '/v1/store/orders', {
        method: 'POST',
        body: JSON.stringify({ petId: pick(petIds), quantity: 1 }),
      });
    },
    async () => {
      const query = pick(['limit=20', 'limit=5&status=available', 'limit=3&status=pending', 'limit=100']);
      const page = await send('page', `/v1/pets?${query}`);
      const next = /<([^>]+)>;\s*rel="next"/.exec(page?.response.headers.get('Link') ?? '')?.[1];
      if (next) await send('next page', next);
    },
    async () => {
      if (petIds.length > 0) await send('item', `/v1/pets/${pick(petIds)}`);
    },
    async () => send('list orders', '/v1/store/orders?limit=10'),
    async () => send('readiness', '/readyz', {}, ''),
    async () => send('unknown key', '/v1/pets', {}, `ask_unknown_${Math.floor(Math.random() * 1000)}`),
    async () => send('unknown pet', `/v1/pets/${9_000_000 + Math.floor(Math.random() * 1000)}`),
  ];

  let keyAdded = false;
  const client = async () => {
    while (performance.now() < deadline && running()) {
      if (!keyAdded && performance.now() > deadline - (seconds * 1000) / 2) {
        keyAdded = true;
        keys.push(createKey(['--plan', 'enterprise', '--per-minute', '100000000', '--per-day', '1000000000']));
      }
      await pick(requests)();
    }
  };
  await Promise.all(Array.from({ length: 8 }, client));
  return { answers, failures };
}
