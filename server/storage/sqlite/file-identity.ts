import { statSync } from 'node:fs';
import { UnavailableError } from '../../../core/errors.ts';

const IN_MEMORY = ':memory:';

/**
 * A check that the path still names the database file this process opened. SQLite keeps a file
 * deleted (or replaced) under it open and goes on writing to it: every commit succeeds, and all of
 * them vanish with the process. So readiness and every group commit check, by device and inode,
 * that the path leads to the open file; one stat, microseconds beside a commit's fsync. Throws
 * `UnavailableError` (503) when it does not.
 */
export function databaseFileCheck(path: string): () => void {
  if (path === IN_MEMORY || path === '') return () => {};
  const opened = statSync(path, { bigint: true });
  return () => {
    let now: ReturnType<typeof statSync>;
    try {
      now = statSync(path, { bigint: true, throwIfNoEntry: false });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'an error';
      throw new UnavailableError('storage', `the database file ${path} cannot be looked up (${code})`, {
        cause: error,
      });
    }
    if (!now) throw new UnavailableError('storage', `the database file ${path} was deleted while the server ran`);
    if (now.dev !== opened.dev || now.ino !== opened.ino)
      throw new UnavailableError('storage', `the database file ${path} was replaced while the server ran`);
  };
}
