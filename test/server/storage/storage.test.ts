// What a Storage offers besides its stores, the same on SQLite and PostgreSQL.
import { describe, expect, it } from 'vitest';
import { postgresReachable } from '../../../support/backing-services.ts';
import { type StorageEngine, useEmptyDatabase } from '../../support/storage-engines.ts';

describe('Storage on SQLite', () => storageBehaviour('SQLite', /^SQLite at \/.+\/store\.db$/));
describe.skipIf(!(await postgresReachable()))('Storage on PostgreSQL', () =>
  storageBehaviour('PostgreSQL', /^PostgreSQL at [^:/]+:\d+\/animal_store_test_[0-9a-f]+$/),
);

function storageBehaviour(engine: StorageEngine, description: RegExp): void {
  const database = useEmptyDatabase(engine);

  it('keeps one 32-byte cursor secret for every instance on the database and across restarts', async () => {
    const secret = database.storage().cursorSecret;
    expect(secret).toHaveLength(32);
    expect((await database.openAnother()).cursorSecret).toEqual(secret);
    expect((await database.reopen()).cursorSecret).toEqual(secret);
  });

  it('resolves a ping while the database answers', async () => {
    await expect(database.storage().ping()).resolves.toBeUndefined();
  });

  it('describes where the data is, for the start-up line', () => {
    expect(database.storage().description).toMatch(description);
  });
}
