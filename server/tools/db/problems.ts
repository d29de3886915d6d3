import Sqlite from 'better-sqlite3';

/** Whether SQLite failed because the file is damaged, rather than because of the program. */
export function isDamagedDatabaseError(error: unknown): error is InstanceType<typeof Sqlite.SqliteError> {
  return (
    error instanceof Sqlite.SqliteError && (error.code.startsWith('SQLITE_CORRUPT') || error.code === 'SQLITE_NOTADB')
  );
}
