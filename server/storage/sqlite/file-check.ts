// What `npm start` checks of the SQLite file before the service opens (and would create or
// migrate) it, so that a file that cannot work stops the start with one line saying what to
// change, before anything is created, printed or served.
import { accessSync, constants, type Stats, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import Sqlite from 'better-sqlite3';
import { PreconditionError } from '../../../core/errors.ts';
import { integrityProblems } from './integrity.ts';
import { keepForLife } from './statement-cache.ts';

/**
 * Checks the file DATABASE_PATH names before the service opens (and would create or migrate) it:
 * that it is no folder, that this user may write where it lives, and, when it exists, that SQLite
 * finds it sound (`PRAGMA quick_check`); a damaged file would otherwise be served with 500s.
 */
export function checkDatabaseFile(path: string): void {
  const existing = statIfExists(path);
  if (existing?.isDirectory()) {
    throw new PreconditionError(
      `DATABASE_PATH ${path} is a folder; set DATABASE_PATH to a file, such as ${join(path, 'animal-store.db')}.`,
    );
  }
  // SQLite writes its journal beside the file, so the folder must be writable too.
  const folder = nearestExistingFolder(dirname(resolve(path)));
  for (const target of existing ? [folder, path] : [folder]) {
    if (!writable(target)) {
      throw new PreconditionError(
        `This user may not write to ${target}, which the database ${path} needs; grant write access, or set DATABASE_PATH to a file in a writable folder.`,
      );
    }
  }
  if (existing) checkIntegrity(path);
}

function checkIntegrity(path: string): void {
  let problems: string[];
  try {
    const db = new Sqlite(path, { readonly: true, fileMustExist: true });
    keepForLife(db);
    try {
      problems = integrityProblems(db, 'quick');
    } finally {
      db.close();
    }
  } catch (error) {
    const code = (error as { code?: string }).code ?? '';
    if (!code.startsWith('SQLITE_CORRUPT') && code !== 'SQLITE_NOTADB') throw error;
    problems = [(error as Error).message];
  }
  // One finding per line, under a `*** in database main ***` heading.
  const findings = problems
    .flatMap((problem) => problem.split('\n'))
    .filter((line) => line.trim() !== '' && !line.startsWith('***'));
  if (findings.length === 0) return;
  const summary = findings.length === 1 ? findings[0] : `${findings[0]}, and ${findings.length - 1} more`;
  throw new PreconditionError(
    `The database ${path} is damaged (SQLite reports: ${summary}); to restore a backup made with \`npm run db:backup -- <file>\`, ` +
      `copy it over ${path} and delete ${path}-wal and ${path}-shm if present, then start again; or set DATABASE_PATH to another database file.`,
  );
}

function statIfExists(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'EACCES')
      throw new PreconditionError(
        `This user may not look into the folders of ${path}; grant access, or set DATABASE_PATH to a file in a folder it may write to.`,
      );
    throw error;
  }
}

/** The folder itself, or the closest ancestor that exists: the one the service would create folders in. */
function nearestExistingFolder(folder: string): string {
  return statIfExists(folder) || dirname(folder) === folder ? folder : nearestExistingFolder(dirname(folder));
}

function writable(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}
