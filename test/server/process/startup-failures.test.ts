import {
  chmodSync,
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { type AddressInfo, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../../core/logger.ts';
import { openService } from '../../../server/service.ts';
import { openDatabase } from '../../../server/storage/sqlite/database.ts';
import { type FinishedProcess, runServerProcessToExit } from '../../support/server-process.ts';

let dir: string;
let portHolder: Server | undefined;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'animal-store-startup-'));
  // Readable by the unprivileged user some cases run the server as.
  chmodSync(dir, 0o755);
});

afterEach(async () => {
  await new Promise((resolve) => (portHolder ? portHolder.close(resolve) : resolve(undefined)));
  portHolder = undefined;
  rmSync(dir, { recursive: true, force: true });
});

/** A database as the server leaves it, with a few pets, its WAL folded back into the file. */
async function databaseWithPets(): Promise<{ path: string; pageSize: number }> {
  const path = join(dir, 'store.db');
  const service = await openService({
    storage: { engine: 'sqlite', path: path },
    logger: createLogger('silent'),
    clientAddress: () => '192.0.2.1',
  });
  for (const name of ['Rex', 'Tom', 'Kit'])
    await service.storage.collections('pets').create({ name, categoryId: 1, status: 'available' });
  await service.close();
  const db = openDatabase(path);
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  db.close();
  return { path, pageSize };
}

function overwrite(path: string, offset: number, length: number): void {
  const file = openSync(path, 'r+');
  writeSync(file, Buffer.alloc(length, 0xa5), 0, length, offset);
  closeSync(file);
}

async function occupiedPort(): Promise<number> {
  const holder = createServer();
  portHolder = holder;
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  return (holder.address() as AddressInfo).port;
}

/** The user and group ids of `nobody`, to run the server as a user the folder does not belong to. */
function nobody(): { uid: number; gid: number } | undefined {
  const entry = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((line) => line.startsWith('nobody:'));
  if (!entry) return undefined;
  const [, , uid, gid] = entry.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

const canSwitchUser = process.getuid?.() === 0 && nobody() !== undefined;

function expectOneLineFailure(run: FinishedProcess, names: RegExp): void {
  expect(run.code, run.stderr).not.toBe(0);
  expect(run.code).not.toBeNull();
  const lines = run.stderr.trim().split('\n');
  expect(lines, run.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(names);
  expect(run.stderr).not.toMatch(/^\s+at /m);
  expect(run.stdout).not.toMatch(/ask_|listening/);
}

// Each test starts Node processes of the server, which take seconds on a busy two-core machine.
describe('start-up failures of server/process/main.ts', { timeout: 60_000 }, () => {
  it('reports a busy port in one line naming PORT, before it creates the database or a key', async () => {
    const port = await occupiedPort();
    const databasePath = join(dir, 'store.db');

    const run = await runServerProcessToExit({ PORT: String(port), DATABASE_PATH: databasePath });

    expectOneLineFailure(run, new RegExp(`Port ${port}.* in use.*PORT`));
    expect(run.stdout).toBe('');
    expect(existsSync(databasePath)).toBe(false);
  });

  it('reports a busy METRICS_PORT in one line naming it, before it creates the database', async () => {
    const port = await occupiedPort();
    const databasePath = join(dir, 'store.db');

    const run = await runServerProcessToExit({ METRICS_PORT: String(port), DATABASE_PATH: databasePath });

    expectOneLineFailure(run, new RegExp(`Port ${port}.* in use.*METRICS_PORT`));
    expect(existsSync(databasePath)).toBe(false);
  });

  it('refuses to start without Redis when REDIS_REQUIRED is set, in one line naming it, before it creates the database', async () => {
    // A port nothing listens on: the holder is closed before the server starts.
    const port = await occupiedPort();
    await new Promise((resolve) => portHolder?.close(resolve));
    portHolder = undefined;
    const databasePath = join(dir, 'store.db');

    const run = await runServerProcessToExit({
      REDIS_URL: `redis://127.0.0.1:${port}`,
      REDIS_REQUIRED: 'true',
      DATABASE_PATH: databasePath,
    });

    expectOneLineFailure(run, /Redis at 127\.0\.0\.1:\d+ does not answer.*REDIS_REQUIRED/);
    expect(run.code).toBe(1);
    expect(existsSync(databasePath)).toBe(false);
  });

  it('reports a HOST that does not resolve in one line naming HOST', async () => {
    const run = await runServerProcessToExit({ HOST: 'no-such-host.invalid', DATABASE_PATH: join(dir, 'store.db') });

    expectOneLineFailure(run, /HOST no-such-host\.invalid does not resolve.*set HOST/);
  });

  it('reports a DATABASE_PATH that is a folder in one line naming DATABASE_PATH', async () => {
    const folder = join(dir, 'folder.db');
    mkdirSync(folder);

    const run = await runServerProcessToExit({ DATABASE_PATH: folder });

    expectOneLineFailure(run, /DATABASE_PATH .*folder\.db is a folder; set DATABASE_PATH/);
  });

  it.skipIf(!canSwitchUser)(
    'reports a folder the user may not write to in one line naming DATABASE_PATH (runs as nobody, so needs root)',
    async () => {
      const locked = join(dir, 'locked');
      mkdirSync(locked, { mode: 0o555 });

      const run = await runServerProcessToExit({ DATABASE_PATH: join(locked, 'store.db') }, nobody());

      expectOneLineFailure(run, /may not write to .*locked.*DATABASE_PATH/);
    },
  );

  it.each([
    ['garbage over its first 100 bytes (the header)', (): [number, number] => [0, 100]],
    ['garbage over pages 2 and 3', (pageSize: number): [number, number] => [pageSize, 2 * pageSize]],
  ])('refuses a database with %s in one line saying how to restore a backup', async (_case, damage) => {
    const { path, pageSize } = await databaseWithPets();
    overwrite(path, ...damage(pageSize));

    const run = await runServerProcessToExit({ DATABASE_PATH: path });

    expectOneLineFailure(run, /is damaged .*npm run db:backup -- <file>.*-wal.*-shm.*DATABASE_PATH/);
  });
});
