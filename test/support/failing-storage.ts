import { loadContract } from '../../contract/bundled.ts';
import { collectionsOf } from '../../contract/collections.ts';
import { UnavailableError } from '../../core/errors.ts';
import type { Service } from '../../server/service.ts';

/** How the storage fails: as SQLite does on a full or locked disk, or with an error nobody expected (a bug). */
export type StorageFailure = 'unavailable' | 'unexpected';

/**
 * Makes every read and write of the service's collections fail, and its readiness probe: the app
 * holds these very stores, so the service keeps its production wiring, and every method of a
 * store fails, whichever the collection layer calls (a new one too). The keys still work.
 */
export function failStorage(storage: Service['storage'], failure: StorageFailure): void {
  const fail = async (): Promise<never> => {
    throw failure === 'unavailable'
      ? new UnavailableError('storage', 'the disk is full (SQLITE_FULL)')
      : new TypeError("Cannot read properties of undefined (reading 'id')");
  };
  for (const collection of collectionsOf(loadContract())) {
    const store = storage.collections(collection.name);
    const methods = Object.getOwnPropertyNames(Object.getPrototypeOf(store)).filter(
      (name) => name !== 'constructor' && typeof (store as unknown as Record<string, unknown>)[name] === 'function',
    );
    Object.assign(store, Object.fromEntries(methods.map((name) => [name, fail])));
  }
  storage.ping = fail;
}
