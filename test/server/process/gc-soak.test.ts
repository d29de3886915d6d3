// The server under mixed load while V8 collects garbage often, between tasks too: on Node 24,
// better-sqlite3 12 aborts the process if a collection there finalizes a statement or database the
// server dropped (support/gc-soak.ts). A short soak here, on whichever Node runs the tests (CI runs
// them on Node 24 too), of the server's sources (the code `npm start` compiles, without the build);
// `npm run bench:gc-soak` soaks the compiled server longer and shows that the same pressure aborts
// a server that drops statements.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { soakServer } from '../../../support/gc-soak.ts';
import { REPOSITORY_ROOT } from '../../../support/repository-copy.ts';
import { useTempDirs } from '../../support/temp-dir.ts';

const SOAK_SECONDS = 3;

describe('the server under garbage-collection pressure', { timeout: 120_000 }, () => {
  const tempDir = useTempDirs();

  it(`answers ${SOAK_SECONDS} s of mixed load without a failure, still runs, and stops with exit code 0 (no native abort)`, async () => {
    const result = await soakServer({
      root: REPOSITORY_ROOT,
      runtime: 'source',
      databasePath: path.join(tempDir(), 'soak.db'),
      seconds: SOAK_SECONDS,
    });

    expect(result.failures).toEqual([]);
    expect(result.aliveAtEnd, result.stderr).toBe(true);
    expect(result.exit).toEqual({ code: 0, signal: null });
    // Every kind of request reached the storage and was answered as it should be.
    for (const answered of ['create 201', 'idempotent create 201', 'order 201', 'page 200', 'readiness 200'])
      expect(result.answers[answered], answered).toBeGreaterThan(0);
    expect(result.majorCollections).toBeGreaterThan(0);
  });
});
