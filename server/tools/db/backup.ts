import { closeSync, existsSync, fsyncSync, openSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { UsageError } from '../../../core/errors.ts';
import type { Database } from '../../storage/sqlite/database.ts';
import { statement } from '../../storage/sqlite/statement-cache.ts';
import { openExistingReadOnly } from './open-existing.ts';

/**
 * Writes a consistent copy of the database at `sourcePath` to `targetPath`, a new file in an
 * existing folder, while other processes keep writing to the source.
 *
 * `VACUUM INTO` rather than the online backup API (`db.backup`): it copies inside one read
 * transaction, so the copy is the database as of one commit and the server's writes go on
 * meanwhile (WAL readers do not block the writer). The backup API copies a few pages per step
 * and starts over whenever another connection commits, so under steady writes it may never
 * finish unless it copies everything in one step, which is then the same single read. VACUUM
 * INTO also refuses to write over an existing file and leaves out free pages.
 */
export function backupDatabase(sourcePath: string, targetPath: string): void {
  const source = openExistingReadOnly(sourcePath);
  try {
    refuseUnusableTarget(targetPath);
    copyInto(source, targetPath);
  } finally {
    source.close();
  }
}

function refuseUnusableTarget(path: string): void {
  if (existsSync(path)) {
    throw new UsageError(`${path} exists already; a backup never replaces a file, so name a new one.`);
  }
  const folder = dirname(path);
  if (!existsSync(folder)) throw new UsageError(`the folder ${folder} does not exist; create it or name another.`);
}

function copyInto(source: Database, path: string): void {
  try {
    statement(source, 'VACUUM INTO ?').run(path);
    syncToDisk(path);
  } catch (error) {
    // A half-written copy must not be taken for a backup later, nor block the next attempt.
    rmSync(path, { force: true });
    throw error;
  }
}

/**
 * SQLite does not sync the file VACUUM INTO writes; without this, a power loss soon after a
 * reported backup could lose it. The folder is synced too, so that the new name survives.
 */
function syncToDisk(path: string): void {
  fsyncPath(path, 'r+');
  fsyncPath(dirname(path), 'r');
}

function fsyncPath(path: string, flags: 'r' | 'r+'): void {
  const descriptor = openSync(path, flags);
  try {
    fsyncSync(descriptor);
  } finally {
    closeSync(descriptor);
  }
}
