// What the API benchmarks share: starting and stopping server processes, their answers, free ports.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildRuntime, RUNTIME_TRANSFORM, runtimeIsStale } from '../scripts/runtime/build.mjs';

export const CONNECTIONS = 50;
export const PATH = '/v1/pets?limit=20';

/** The steps of `npm run bench:floor`: bench/servers/floor.ts with `FLOOR_STEP` = the index. */
export const FLOOR_STEPS = [
  'bare Hono, constant answer',
  '+ request id and trace context',
  '+ access log line',
  '+ key lookup and rate limit',
  '+ handler: validation, page, cursor, JSON',
  'full stack (createApp)',
] as const;

/** The module `npm start` runs: the server's main, compiled into dist/runtime by `npm run build`. */
const COMPILED_MAIN = fileURLToPath(new URL('../dist/runtime/server/process/main.js', import.meta.url));

/**
 * The server as `npm start` runs it, and resolves once it listens: the compiled main of
 * dist/runtime, built first when older than its sources, with source maps on as
 * scripts/runtime/run.mjs turns them on. Users run that program, not the sources under tsx.
 */
export async function startServer(
  env: Record<string, string>,
  nodeOptions: string[] = [],
): Promise<{ child: ChildProcess; url: string }> {
  if (await runtimeIsStale()) await buildRuntime();
  return startNode([...nodeOptions, '--enable-source-maps', COMPILED_MAIN], env);
}

/** Where the bench's own servers are compiled to: inside the repository, so their packages resolve. */
const COMPILED_BENCH_SERVERS = fileURLToPath(new URL('../dist/bench/', import.meta.url));

/**
 * One of the bench's own servers (bench/servers/, a single module importing only packages),
 * compiled as dist/runtime is (its esbuild transform, no loader at run time), so that the
 * servers compared with ours run as ours does: resolves once it listens.
 */
export async function startCompiled(
  entry: string,
  env: Record<string, string>,
): Promise<{ child: ChildProcess; url: string }> {
  const { transform } = await import('esbuild');
  const { code } = await transform(await readFile(entry, 'utf8'), RUNTIME_TRANSFORM);
  const compiled = path.join(COMPILED_BENCH_SERVERS, path.basename(entry).replace(/\.ts$/, '.js'));
  await mkdir(COMPILED_BENCH_SERVERS, { recursive: true });
  await writeFile(compiled, code);
  return startNode([compiled], env);
}

/** Runs a TypeScript server (`node --import tsx entry`) and resolves once it prints where it listens. */
export function start(
  entry: string,
  env: Record<string, string>,
  nodeOptions: string[] = [],
): Promise<{ child: ChildProcess; url: string }> {
  return startNode([...nodeOptions, '--import', 'tsx', entry], env);
}

/** Runs `node ...args` (a server) and resolves once it prints where it listens. */
export async function startNode(
  args: string[],
  env: Record<string, string>,
): Promise<{ child: ChildProcess; url: string }> {
  const entry = args.at(-1);
  const child = spawn(process.execPath, args, {
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const url = /listening on (http:\/\/\S+)\/v1/.exec(output)?.[1];
      if (url !== undefined) {
        // The full stack logs a line per request: keep draining stdout, or the process blocks on a full pipe.
        child.stdout.off('data', onData);
        child.stdout.resume();
        resolve(url);
      }
    };
    child.stdout.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${entry} exited with ${code}: ${output}`)));
  });
  return { child, url };
}

/** SIGTERM, then SIGKILL if it has not exited 10 s later; `group`: the child leads its own process group (npm). */
export async function stop(child: ChildProcess, group = false): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const pid = child.pid;
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(group ? -pid : pid, name);
    } catch {
      // Already gone.
    }
  };
  signal('SIGTERM');
  const timer = setTimeout(() => signal('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** Written by Node's HTTP server itself, for every server alike. */
const NODE_HEADERS = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);

export interface BenchRequest {
  method?: 'GET' | 'POST';
  path?: string;
  headers?: Record<string, string>;
  /** A JSON body. */
  body?: string;
  /** The status the answer must have. */
  status?: number;
}

/** The body and the headers (besides Node's own) of the answer to one request; throws on another status. */
export async function answerOf(
  url: string,
  { method = 'GET', path = PATH, headers = {}, body, status = 200 }: BenchRequest = {},
): Promise<{ body: string; headers: Record<string, string> }> {
  const answer = await fetch(`${url}${path}`, {
    method,
    headers: body === undefined ? headers : { ...headers, 'Content-Type': 'application/json' },
    body,
  });
  const text = await answer.text();
  if (answer.status !== status) throw new Error(`${method} ${url}${path} answered ${answer.status}: ${text}`);
  return {
    body: text,
    headers: Object.fromEntries([...answer.headers].filter(([name]) => !NODE_HEADERS.has(name))),
  };
}

/** A port nothing listens on now, for programs that must be told theirs. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** `npm run <script>` in `cwd`, in a process group of its own so that `stop(child, true)` ends npm and what it ran. */
export function npmRun(cwd: string, args: string[], env: Record<string, string> = {}): ChildProcess {
  return spawn('npm', ['run', '--silent', ...args], {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** The value below which `share` (0.99) of the sorted values lie (nearest rank). */
export function percentile(values: number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(share * sorted.length) - 1))] ?? 0;
}
