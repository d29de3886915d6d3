// Prism (the pinned @stoplight/prism-cli) as a child process on a private port of 127.0.0.1.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

const PRISM_CLI = createRequire(import.meta.url).resolve('@stoplight/prism-cli');
const HOST = '127.0.0.1';
const START_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 3_000;
/** Prism picks no port itself that we could learn at `-v error`; a port taken between our pick and its listen is retried. */
const PORT_ATTEMPTS = 3;

export interface PrismProcess {
  /** Where this Prism listens, e.g. `http://127.0.0.1:41234`. */
  origin: string;
  /** Settles when the process has ended, whether stopped or not. */
  exited: Promise<void>;
  /** The last lines Prism printed, for messages about its failures. */
  output(): string;
  stop(): Promise<void>;
}

export interface PrismProcessOptions {
  /** Keep Prism's own output (at `-v error`, only failures) for error messages instead of passing it to stderr. */
  quiet: boolean;
}

const running = new Set<ChildProcess>();
// A Prism left behind would hold its port and keep serving an old contract.
process.once('exit', () => {
  for (const child of running) killGroup(child, 'SIGKILL');
});

/** Starts `prism <args>` and resolves once it accepts connections. */
export async function startPrism(args: string[], options: PrismProcessOptions): Promise<PrismProcess> {
  let lastError: unknown;
  for (let attempt = 0; attempt < PORT_ATTEMPTS; attempt += 1) {
    try {
      return await startOnPort(args, await freePort(), options);
    } catch (error) {
      lastError = error;
      if (!(error instanceof PortTakenError)) break;
    }
  }
  throw lastError;
}

class PortTakenError extends Error {}

async function startOnPort(args: string[], port: number, options: PrismProcessOptions): Promise<PrismProcess> {
  const child = spawn(
    process.execPath,
    // -v error: Prism's default logging halves its throughput. No multiprocess: one process to stop.
    [PRISM_CLI, ...args, '--host', HOST, '--port', String(port), '--verboseLevel', 'error', '--multiprocess=false'],
    {
      env: { ...process.env, SCARF_ANALYTICS: 'false' },
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group, so that stopping it also stops anything it started.
      detached: true,
    },
  );
  running.add(child);
  let output = '';
  for (const stream of [child.stdout, child.stderr]) {
    stream.setEncoding('utf8').on('data', (chunk: string) => {
      output = (output + chunk).slice(-20_000);
      if (!options.quiet) process.stderr.write(chunk);
    });
  }
  const exited = once(child, 'exit').then(() => {
    running.delete(child);
  });

  const stop = async (): Promise<void> => {
    if (!running.has(child)) return;
    killGroup(child, 'SIGTERM');
    const timer = setTimeout(() => killGroup(child, 'SIGKILL'), STOP_TIMEOUT_MS);
    await exited;
    clearTimeout(timer);
  };

  const outcome = await Promise.race([
    waitUntilListening(port, () => running.has(child)),
    exited.then(() => 'exited' as const),
  ]);
  if (outcome === 'exited') {
    const message = `Prism exited before listening on port ${port}:\n${output.trim()}`;
    throw /EADDRINUSE|address already in use/i.test(output) ? new PortTakenError(message) : new Error(message);
  }
  if (outcome === 'timeout') {
    await stop();
    throw new Error(`Prism did not listen on port ${port} within ${START_TIMEOUT_MS / 1000} s:\n${output.trim()}`);
  }
  return { origin: `http://${HOST}:${port}`, exited, output: () => output.trim(), stop };
}

async function waitUntilListening(port: number, alive: () => boolean): Promise<'listening' | 'timeout' | 'exited'> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (!alive()) return 'exited';
    if (await accepts(port)) return 'listening';
    await sleep(40);
  }
  return 'timeout';
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: HOST, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, HOST, () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  // No pid: the process never started, so there is nothing to stop.
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}
