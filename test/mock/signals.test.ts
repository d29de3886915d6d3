// `npm run mock` and `npm run mock:stateful` as a developer runs them, stopped as a developer
// stops them (Ctrl-C, `kill`, a closed terminal, `kill -9`): the port is free again at once and
// no process the mock started (Prism, the pipeline's watch loop) is left running. A signal npm
// passes on (Ctrl-C, `kill`) is sent to npm; one it does not (a closed terminal reaches every
// process of the terminal; `kill -9` can only be aimed at the mock) to the mock's own process.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { STATEFUL_MOCK_KEY } from '../../mock/node/stateful-server.ts';
import { REPOSITORY_ROOT } from '../../support/repository-copy.ts';

/** The commands of `npm run mock` and `npm run mock:stateful` (package.json), for running them without npm in between. */
const COMMANDS = {
  mock: {
    args: ['--import', 'tsx', 'mock/node/cli.ts'],
    key: 'ask_any_key_works_here',
  },
  'mock:stateful': { args: ['--import', 'tsx', 'mock/node/stateful-cli.ts'], key: STATEFUL_MOCK_KEY },
} as const;
type Command = keyof typeof COMMANDS;

/** The banner line both print once they listen: `Animal Store API [stateful ]mock ... on http://127.0.0.1:PORT/v1`. */
const BANNER = /^Animal Store API .*\bon (http:\/\/127\.0\.0\.1:\d+)\/v1\b/m;

interface RunningCommand {
  child: ChildProcess;
  url: string;
  key: string;
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

let running: ChildProcess[] = [];
afterAll(() => {
  for (const child of running) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  running = [];
});

/** Starts the command (under npm, or its own process alone) on a free port (`MOCK_PORT=0`); resolves once it has printed where it listens. */
async function startCommand(command: Command, underNpm: boolean): Promise<RunningCommand> {
  const [program, args] = underNpm
    ? ['npm', ['run', '--silent', command]]
    : [process.execPath, [...COMMANDS[command].args]];
  const child = spawn(program, args, {
    cwd: REPOSITORY_ROOT,
    env: { ...process.env, MOCK_PORT: '0', CORS_ORIGINS: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.push(child);
  let output = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const exited = once(child, 'exit').then(([code, signal]) => ({
    code: code as number | null,
    signal: signal as NodeJS.Signals | null,
  }));
  // No timer of its own: a loaded machine may take long to start it; the test's timeout bounds the wait.
  const url = await new Promise<string>((resolve, reject) => {
    const onData = () => {
      const found = BANNER.exec(output)?.[1];
      if (found === undefined) return;
      child.stdout?.off('data', onData);
      resolve(found);
    };
    child.stdout?.on('data', onData);
    void exited.then(({ code, signal }) => {
      reject(new Error(`npm run ${command} exited (${code ?? signal}) before listening.\n${output}`));
    });
  });
  return { child, url, key: COMMANDS[command].key, output: () => output, exited };
}

interface ProcessEntry {
  pid: number;
  ppid: number;
  /** Clock ticks after boot: tells a process from a later one given the same pid. */
  started: string;
  state: string;
  commandLine: string;
}

/** Every process of the machine, from /proc. */
function processes(): Map<number, ProcessEntry> {
  const found = new Map<number, ProcessEntry>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // The command name, in parentheses, may hold spaces and parentheses: the fields follow the last `)`.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const commandLine = readFileSync(`/proc/${name}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
      found.set(Number(name), {
        pid: Number(name),
        state: fields[0] ?? '',
        ppid: Number(fields[1]),
        started: fields[19] ?? '',
        commandLine,
      });
    } catch {
      // Gone between the listing and the read.
    }
  }
  return found;
}

/** `root` and every process below it. */
function processTree(root: number): ProcessEntry[] {
  const all = [...processes().values()];
  const tree: ProcessEntry[] = [];
  let level = all.filter((entry) => entry.pid === root);
  while (level.length > 0) {
    tree.push(...level);
    const parents = new Set(level.map((entry) => entry.pid));
    level = all.filter((entry) => parents.has(entry.ppid));
  }
  return tree;
}

/** Those of `entries` still running: the same process (same start), not a zombie. */
function stillRunning(entries: ProcessEntry[]): ProcessEntry[] {
  const now = processes();
  return entries.filter((entry) => {
    const current = now.get(entry.pid);
    return current !== undefined && current.started === entry.started && current.state !== 'Z';
  });
}

/** Running processes whose command line mentions Prism. */
function prismProcesses(): ProcessEntry[] {
  return [...processes().values()].filter((entry) => /prism/i.test(entry.commandLine) && entry.state !== 'Z');
}

/** Whether a process is ours: below this test's process, or orphaned (adopted by pid 1) as a killed parent's children are. */
function oursOrOrphaned(entry: ProcessEntry): boolean {
  const all = processes();
  if (entry.ppid === 1) return true;
  for (let current = all.get(entry.ppid); current; current = all.get(current.ppid)) {
    if (current.pid === process.pid) return true;
    if (current.pid <= 1) break;
  }
  return false;
}

/** Resolves once nothing accepts connections on the URL's port. */
async function refusesConnections(url: string): Promise<true> {
  const { hostname, port } = new URL(url);
  while (true) {
    const refused = await new Promise<boolean>((resolve) => {
      const socket = connect({ host: hostname, port: Number(port) });
      socket.once('connect', () => {
        socket.destroy();
        resolve(false);
      });
      socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
    });
    if (refused) return true;
    await sleep(50);
  }
}

/** Polls `check` until it returns an empty list; the test's timeout ends a wait for what never happens. */
async function emptied<T>(check: () => T[]): Promise<T[]> {
  let left = check();
  while (left.length > 0) {
    await sleep(100);
    left = check();
  }
  return left;
}

const describeProcess = (entry: ProcessEntry) => `${entry.pid} (parent ${entry.ppid}): ${entry.commandLine}`;

// Each case runs its own process on its own port, so the cases run at once.
describe.concurrent('Nothing left behind', { timeout: 120_000 }, () => {
  it.each<[Command, NodeJS.Signals, 'npm' | 'the mock']>([
    ['mock', 'SIGINT', 'npm'],
    ['mock', 'SIGTERM', 'npm'],
    ['mock', 'SIGHUP', 'the mock'],
    ['mock', 'SIGKILL', 'the mock'],
    ['mock:stateful', 'SIGINT', 'npm'],
    ['mock:stateful', 'SIGTERM', 'npm'],
  ])('npm run %s stopped with %s to %s frees its port and leaves no process running', async (command, signal, to) => {
    const prismBefore = new Set(prismProcesses().map((entry) => `${entry.pid}/${entry.started}`));
    const mock = await startCommand(command, to === 'npm');
    const headers = { Authorization: `Bearer ${mock.key}` };
    // An ordinary answer and one Prism answers, so that whatever Prism needs has been started.
    expect((await fetch(`${mock.url}/v1/pets`, { headers })).status).toBe(200);
    expect((await fetch(`${mock.url}/v1/pets/42`, { headers: { ...headers, Prefer: 'code=404' } })).status).toBe(404);
    const tree = processTree(mock.child.pid ?? -1);
    expect(tree.map((entry) => entry.pid)).toContain(mock.child.pid);

    mock.child.kill(signal);
    const exit = await mock.exited;

    // Ctrl-C, kill and a closed terminal let it close and exit 0; kill -9 gives it no say.
    expect(exit, mock.output()).toEqual(signal === 'SIGKILL' ? { code: null, signal } : { code: 0, signal: null });
    expect(await refusesConnections(mock.url)).toBe(true);
    const left = await emptied(() => stillRunning(tree));
    expect(left.map(describeProcess), 'processes of the mock still running').toEqual([]);
    const newPrism = await emptied(() =>
      prismProcesses().filter((entry) => !prismBefore.has(`${entry.pid}/${entry.started}`) && oursOrOrphaned(entry)),
    );
    expect(newPrism.map(describeProcess), 'Prism processes left running').toEqual([]);
  });
});
