// The storage the configuration names, for the server and the operator's tools alike.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Contract } from '../../contract/contract.ts';
import type { Clock } from '../../core/clock.ts';
import { UnavailableError } from '../../core/errors.ts';
import type { StorageConfig } from '../process/config.ts';
import { openSqliteStorage } from './sqlite/storage.ts';
import type { Storage, StorageObserver } from './storage.ts';

interface OpenRetries {
  /** How long to keep trying while the storage cannot be reached (PostgreSQL starting, a loaded host); 0: once. */
  forMs: number;
  /** Told of each failed try that is tried again, with the wait before the next. */
  onRetry(error: UnavailableError, waitMs: number): void;
}

export interface OpenOptions {
  clock?: Clock;
  contract?: Contract;
  /** Told of the storage's calls (the traces' spans); none by default. */
  observer?: StorageObserver;
  /** Once, by default. */
  retries?: OpenRetries;
}

/** The first wait between tries; each next one doubles, up to the last. */
const FIRST_WAIT_MS = 250;
const LONGEST_WAIT_MS = 2_000;

export async function openStorage(
  config: StorageConfig,
  { clock, contract, observer, retries = { forMs: 0, onRetry: () => {} } }: OpenOptions = {},
): Promise<Storage> {
  const giveUpAt = performance.now() + retries.forMs;
  for (let wait = FIRST_WAIT_MS; ; wait = Math.min(wait * 2, LONGEST_WAIT_MS)) {
    try {
      if (config.engine === 'sqlite') return openSqliteStorage(config.path, clock, contract, observer);
      // pg is loaded only where DATABASE_URL asks for it: a server on SQLite keeps its memory.
      const { openPostgresStorage } = await import('./postgres/storage.ts');
      return await openPostgresStorage(config.url, { poolSize: config.poolSize, clock, ...(contract && { contract }) });
    } catch (error) {
      if (!(error instanceof UnavailableError) || performance.now() + wait > giveUpAt) throw error;
      retries.onRetry(error, wait);
      await sleep(wait);
    }
  }
}
