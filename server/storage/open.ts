// The storage the configuration names, for the server and the operator's tools alike.
import type { Contract } from '../../contract/contract.ts';
import type { Clock } from '../../core/clock.ts';
import type { StorageConfig } from '../process/config.ts';
import { openPostgresStorage } from './postgres/storage.ts';
import { openSqliteStorage } from './sqlite/storage.ts';
import type { Storage, StorageObserver } from './storage.ts';

export async function openStorage(
  config: StorageConfig,
  clock?: Clock,
  contract?: Contract,
  observer?: StorageObserver,
): Promise<Storage> {
  if (config.engine === 'sqlite') return openSqliteStorage(config.path, clock, contract, observer);
  return openPostgresStorage(config.url, { poolSize: config.poolSize, clock, ...(contract && { contract }) });
}
