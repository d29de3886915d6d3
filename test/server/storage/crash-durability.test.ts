import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../server/database.ts';
import { SqlitePetStore } from '../../../server/store/sqlite-pet-store.ts';
import { useTempDirs } from './temp-dir.ts';

const tempDir = useTempDirs();
const writer = fileURLToPath(new URL('./fixtures/write-pets.ts', import.meta.url));
const ACKNOWLEDGED_BEFORE_KILL = 200;

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

describe('SqlitePetStore durability', () => {
  it('keeps every acknowledged pet when the process is killed with SIGKILL', async () => {
    const path = join(tempDir(), 'store.db');
    const acknowledged = await acknowledgeThenKill(path, ACKNOWLEDGED_BEFORE_KILL);
    expect(acknowledged).toHaveLength(ACKNOWLEDGED_BEFORE_KILL);

    const db = openDatabase(path);
    const store = new SqlitePetStore(db);
    for (const id of acknowledged) {
      expect(await store.get(id)).toEqual({ id, name: `Pet ${id}`, categoryId: id, status: 'available' });
    }
    db.close();
  }, 20_000);
});
