import { type ChildProcess, type SpawnOptions, spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { RUNTIME_DIR } from '../../scripts/runtime/build.mjs';

/**
 * A program of server/ (`process/main`, `tools/keys-cli`) as `npm start` and `npm run keys` run it:
 * compiled, which the run's global setup has brought up to date with the sources. It starts in
 * about half the time of the sources under tsx.
 */
export function compiledProgram(module: string): string {
  return path.join(RUNTIME_DIR, 'server', `${module}.js`);
}

const MAIN = compiledProgram('process/main');

export interface ServerProcess {
  child: ChildProcess;
  baseUrl: string;
  /** Everything the process printed on stdout so far. */
  output(): string;
  /** Everything the process printed on stderr so far. */
  errors(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function spawnMain(env: Record<string, string>, options: Pick<SpawnOptions, 'uid' | 'gid'> = {}) {
  const child = spawn(process.execPath, [MAIN], {
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...options,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = once(child, 'exit').then(([code, signal]) => ({
    code: code as number | null,
    signal: signal as NodeJS.Signals | null,
  }));
  return { child, exited, output: () => stdout, errors: () => stderr };
}

/** Starts the compiled `server/process/main.ts` as its own process on a free port and resolves once it listens. */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const { child, exited, output, errors } = spawnMain(env);
  // No timer of its own: a loaded machine may take long to start it; the test's timeout bounds the wait.
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const onData = () => {
      const url = /listening on (http:\/\/[^\s]+)\/v1/.exec(output())?.[1];
      if (url) {
        child.stdout.off('data', onData);
        resolve(url);
      }
    };
    child.stdout.on('data', onData);
    void exited.then(({ code }) => {
      reject(new Error(`The server exited with ${code} before listening.\n${output()}\n${errors()}`));
    });
  });
  return { child, baseUrl, output, errors, exited };
}

export interface FinishedProcess {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the compiled `server/process/main.ts` when it is expected to stop by itself (a start-up that fails). */
export async function runServerProcessToExit(
  env: Record<string, string>,
  options: Pick<SpawnOptions, 'uid' | 'gid'> = {},
): Promise<FinishedProcess> {
  const { child, exited, output, errors } = spawnMain(env, options);
  // Only a safety net for a start-up that hangs: the tests' own timeouts judge how long it may take.
  const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
  // 'close' comes after the last output, where 'exit' may not.
  await once(child, 'close');
  const { code } = await exited;
  clearTimeout(timer);
  return { code, stdout: output(), stderr: errors() };
}
