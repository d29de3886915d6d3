import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import { loadContract } from '../../../contract/bundled.ts';
import { sqliteCollectionStores } from '../../../server/storage/sqlite/collections.ts';
import { openDatabase } from '../../../server/storage/sqlite/database.ts';
import { SqliteKeyStore } from '../../../server/storage/sqlite/key-store.ts';
import { startServerProcess } from '../../support/server-process.ts';
import { useTempDirs } from '../../support/temp-dir.ts';

const tempDir = useTempDirs();
const writer = fileURLToPath(new URL('../../support/fixtures/write-pets.ts', import.meta.url));
const ACKNOWLEDGED_BEFORE_KILL = 200;
const CONCURRENT_CLIENTS = 50;
const ACKNOWLEDGED_BY_SERVER_BEFORE_KILL = 500;

/** Runs the writer until it has acknowledged `count` pets, then kills it with SIGKILL. */
async function acknowledgeThenKill(path: string, count: number): Promise<number[]> {
  const child = spawn(process.execPath, ['--import', 'tsx', writer, path], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_, signal) => resolve(signal)));
  const acknowledged: number[] = [];
  for await (const line of createInterface({ input: child.stdout })) {
    acknowledged.push(Number(line));
    if (acknowledged.length === count) {
      child.kill('SIGKILL');
      break;
    }
  }
  expect(await exited).toBe('SIGKILL');
  return acknowledged;
}

describe('SQLite collection store durability', () => {
  it('keeps every acknowledged pet when the process is killed with SIGKILL', async () => {
    const path = join(tempDir(), 'store.db');
    const acknowledged = await acknowledgeThenKill(path, ACKNOWLEDGED_BEFORE_KILL);
    expect(acknowledged).toHaveLength(ACKNOWLEDGED_BEFORE_KILL);

    const db = openDatabase(path);
    const store = sqliteCollectionStores(db, loadContract())('pets');
    for (const id of acknowledged) {
      expect(await store.get(id)).toEqual({ id, name: `Pet ${id}`, categoryId: id, status: 'available' });
    }
    db.close();
  });

  it('keeps every pet the server acknowledged with 201 when killed with SIGKILL amid concurrent POSTs', async () => {
    const path = join(tempDir(), 'server.db');
    const setup = openDatabase(path);
    const { secret } = await new SqliteKeyStore(setup).create({
      plan: 'enterprise',
      perMinute: 1_000_000,
      perDay: 1_000_000,
    });
    setup.close();

    const server = await startServerProcess({ DATABASE_PATH: path });
    // Also after a timeout, which a `finally` would not see.
    onTestFinished(() => {
      if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
    });
    const { baseUrl, child } = server;
    const headers = { Authorization: `Bearer ${secret}`, 'Content-Type': 'application/json' };
    const acknowledged = new Map<number, string>();
    let inFlight = 0;
    let inFlightAtKill = 0;
    let killed = false;
    const client = async (clientIndex: number) => {
      for (let index = 0; !killed; index += 1) {
        const name = `Pet ${clientIndex}-${index}`;
        inFlight += 1;
        try {
          const response = await fetch(`${baseUrl}/v1/pets`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ name, categoryId: clientIndex + 1 }),
          });
          if (response.status !== 201) throw new Error(`POST answered ${response.status}: ${await response.text()}`);
          const { id } = (await response.json()) as { id: number };
          acknowledged.set(id, name);
        } catch (error) {
          // A request cut by the kill has no answer: its pet may or may not be stored.
          if (!killed) throw error;
        } finally {
          inFlight -= 1;
        }
        if (!killed && acknowledged.size >= ACKNOWLEDGED_BY_SERVER_BEFORE_KILL) {
          killed = true;
          inFlightAtKill = inFlight;
          child.kill('SIGKILL');
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENT_CLIENTS }, (_, index) => client(index)));
    expect((await server.exited).signal).toBe('SIGKILL');
    expect(inFlightAtKill).toBeGreaterThan(0);
    expect(acknowledged.size).toBeGreaterThanOrEqual(ACKNOWLEDGED_BY_SERVER_BEFORE_KILL);

    const db = openDatabase(path);
    const stored = new Map(
      db
        .prepare<[], { id: number; name: string }>('SELECT id, name FROM pets')
        .all()
        .map(({ id, name }) => [id, name]),
    );
    db.close();
    for (const [id, name] of acknowledged) expect(stored.get(id)).toBe(name);
  });
});
