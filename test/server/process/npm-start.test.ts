// `npm start` as an operator runs it: the server compiled into dist/runtime (rebuilt when a source is
// newer), run by Node without a TypeScript loader, and stopped with npm: a signal to npm's process
// drains and ends the server, leaving no process behind.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdir, readFile, stat, utimes } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyRepository, type RepositoryCopy } from '../../../support/repository-copy.ts';

/** What `npm start` needs of the repository: the runtime's sources, the build and the docs step's (the page's console bundles the client and the mock). */
const STARTABLE = [
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'redocly.yaml',
  'CHANGELOG.md',
  'server',
  'core',
  'node',
  'contract',
  'generated',
  'scripts',
  'openapi',
  'releases',
  'client',
  'mock',
];

let copy: RepositoryCopy;
beforeAll(async () => {
  copy = await copyRepository(STARTABLE, 'animal-store-npm-start-');
});
afterAll(() => copy.remove());

interface NpmStart {
  npm: ChildProcess;
  /** The database path, unique to this start: it tells the processes this start made from all others. */
  databasePath: string;
  baseUrl: string;
  output(): string;
}

async function npmStart(name: string): Promise<NpmStart> {
  const databasePath = path.join(copy.root, 'data', `${name}.db`);
  const npm = spawn('npm', ['start'], {
    cwd: copy.root,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATABASE_PATH: databasePath, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  npm.stdout?.on('data', (chunk) => (output += chunk));
  npm.stderr?.on('data', (chunk) => (output += chunk));
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const listening = () => {
      const url = /listening on (http:\/\/[^\s]+\/v1)/.exec(output)?.[1];
      if (url) resolve(url);
    };
    npm.stdout?.on('data', listening);
    npm.once('exit', (code) => reject(new Error(`npm start exited with ${code} before listening:\n${output}`)));
  });
  return { npm, databasePath, baseUrl, output: () => output };
}

/** The command lines of every process whose environment carries this start's database path. */
async function processesOf(start: NpmStart): Promise<string[]> {
  const marker = `DATABASE_PATH=${start.databasePath}`;
  const found: string[] = [];
  for (const pid of (await readdir('/proc')).filter((entry) => /^\d+$/.test(entry))) {
    try {
      const environ = (await readFile(`/proc/${pid}/environ`, 'utf8')).split('\0');
      if (environ.includes(marker)) found.push((await readFile(`/proc/${pid}/cmdline`, 'utf8')).replaceAll('\0', ' '));
    } catch {
      // The process ended while it was being read.
    }
  }
  return found;
}

describe.skipIf(process.platform !== 'linux')('npm start', { timeout: 180_000 }, () => {
  it('builds dist/runtime when it is missing and runs the compiled server, with no TypeScript loader, answering before the docs are built', {
    timeout: 300_000,
  }, async () => {
    const start = await npmStart('compiled');
    try {
      await stat(path.join(copy.root, 'dist', 'runtime', 'server', 'process', 'main.js'));
      const response = await fetch(`${start.baseUrl}/pets`);
      expect(response.status).toBe(401);
      // The fresh copy has no docs: they are built beside the running server, which says so.
      const docsUrl = new URL('/docs/', start.baseUrl);
      const early = await fetch(docsUrl);
      expect(
        { status: early.status, retryAfter: early.headers.get('Retry-After') },
        `${await early.text()}\n${start.output()}`,
      ).toEqual({ status: 503, retryAfter: expect.stringMatching(/^\d+$/) });
      const commands = await processesOf(start);
      const server = commands.find((command) => command.includes('scripts/runtime/run.mjs main'));
      expect(server, commands.join('\n')).toBeDefined();
      // Only the docs step, a build tool, runs through tsx; the server does not.
      expect(server).not.toContain('tsx');
      expect(
        commands.filter((command) => command.includes('tsx') && !command.includes('scripts/docs/start.ts')),
      ).toEqual([]);
      await expect.poll(async () => (await fetch(docsUrl)).status, { timeout: 240_000, interval: 500 }).toBe(200);
      const lines = start
        .output()
        .split('\n')
        .filter((line) => line.startsWith('{'));
      expect(lines.map((line) => JSON.parse(line).event)).toContain('docs');
    } finally {
      start.npm.kill('SIGTERM');
      await once(start.npm, 'exit');
    }
  });

  it('rebuilds the runtime when a source is newer than the build', async () => {
    const built = path.join(copy.root, 'dist', 'runtime', 'server', 'process', 'main.js');
    const before = await npmStart('first');
    before.npm.kill('SIGTERM');
    await once(before.npm, 'exit');
    const firstBuild = (await stat(built)).mtimeMs;
    const source = path.join(copy.root, 'server', 'process', 'main.ts');
    const later = new Date(firstBuild + 60_000);
    await utimes(source, later, later);

    const after = await npmStart('second');
    try {
      expect((await stat(built)).mtimeMs).toBeGreaterThan(firstBuild);
    } finally {
      after.npm.kill('SIGTERM');
      await once(after.npm, 'exit');
    }
  });

  it.each(['SIGTERM', 'SIGINT'] as const)(
    'stops the server on %s to npm: it drains, says so and exits, and no process of it is left',
    async (signal) => {
      const start = await npmStart(signal);
      expect(await processesOf(start)).not.toEqual([]);
      const exited = once(start.npm, 'exit');
      start.npm.kill(signal);
      await exited;
      await expect.poll(() => processesOf(start)).toEqual([]);
      expect(start.output()).toContain(`${signal} received: finishing requests in flight, then stopping.`);
    },
  );
});
