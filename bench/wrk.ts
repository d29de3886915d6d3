// The HTTP load of the benches: wrk (the Debian package `wrk`) in a process of its own, one
// thread, with bench/wrk/report.lua, which hands back its counts and percentiles as one JSON line.
// wrk costs the machine far less CPU than a load generator in a Node process, which matters on
// 2 cores: the server keeps the cores the load generator does not take.
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('./wrk/report.lua', import.meta.url));
/** One thread drives 50 connections at these rates with a fraction of a core; a second would take CPU from the servers. */
const THREADS = 1;

/** What report.lua's done() prints: wrk's counts, and latencies in microseconds. */
export interface WrkResult {
  requests: number;
  durationUs: number;
  connect: number;
  read: number;
  write: number;
  status: number;
  timeout: number;
  p50Us: number;
  p99Us: number;
  maxUs: number;
}

const ERROR_KINDS = ['connect', 'read', 'write', 'timeout', 'status'] as const;

export interface WrkLoad {
  url: string;
  connections: number;
  seconds: number;
  headers?: Record<string, string>;
  /** A JSON body: the requests are then POSTs with it. */
  body?: string;
  /** Each request from another `X-Forwarded-For` address, as many clients behind a trusted proxy. */
  spreadAddresses?: boolean;
  /** Give every request an `Idempotency-Key` of its own. */
  idempotencyKeys?: boolean;
}

/** Exits the process with how to install wrk when it is missing: every API figure needs it. */
export function requireWrk(): void {
  if (!spawnSync('wrk', ['--version']).error) return;
  console.error('wrk is not installed. It is the Debian package `wrk`: apt-get update && apt-get install -y wrk');
  process.exit(1);
}

export function wrk({
  url,
  connections,
  seconds,
  headers = {},
  body,
  spreadAddresses = false,
  idempotencyKeys = false,
}: WrkLoad): Promise<WrkResult> {
  const args = [`-t${THREADS}`, `-c${connections}`, `-d${seconds}s`, '--timeout', '10s', '-s', SCRIPT];
  for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}: ${value}`);
  const child = spawn('wrk', [...args, url], {
    env: {
      ...process.env,
      WRK_BODY: body ?? '',
      WRK_SPREAD_ADDRESSES: spreadAddresses ? '1' : '',
      WRK_IDEMPOTENCY_KEYS: idempotencyKeys ? '1' : '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => {
      const json = /WRK_RESULT (\{.*\})/.exec(output)?.[1];
      if (code !== 0 || json === undefined) reject(new Error(`wrk exited with ${code}: ${output}`));
      else resolve(JSON.parse(json) as WrkResult);
    });
  });
}

export function requestsPerSecond(result: WrkResult): number {
  return result.requests / (result.durationUs / 1e6);
}

/** Socket errors and answers with a status >= 400 (what wrk counts as `status`). */
export function errorCount(result: WrkResult): number {
  return ERROR_KINDS.reduce((sum, kind) => sum + result[kind], 0);
}

/** `0`, or the count and its kinds, e.g. `3 (timeout 1, status >= 400 2)`. */
export function describeErrors(result: WrkResult): string {
  const errors = errorCount(result);
  if (errors === 0) return '0';
  const kinds = ERROR_KINDS.filter((kind) => result[kind] > 0).map(
    (kind) => `${kind === 'status' ? 'status >= 400' : kind} ${result[kind]}`,
  );
  return `${errors} (${kinds.join(', ')})`;
}
