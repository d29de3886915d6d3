import type { Database, Statement } from 'better-sqlite3';
import { StorageUnavailableError } from '../../core/store/storage-error.ts';
import { changeDetector } from './change-detector.ts';
import { GroupCommit } from './group-commit.ts';
import type { NewPet, Pet, PetPage, PetPageQuery, PetStatus, PetStore } from './pet-store.ts';
import { ReadCache } from './read-cache.ts';
import { withSqlite } from './sqlite-errors.ts';
import { assertStorableName } from './storable-name.ts';

const PET_COLUMNS = 'id, name, category_id AS categoryId, status';

/** The statements of the store, exported so tests can check how SQLite plans them. */
export const PET_QUERIES = {
  insert: `INSERT INTO pets (name, category_id, status) VALUES (?, ?, ?) RETURNING ${PET_COLUMNS}`,
  get: `SELECT ${PET_COLUMNS} FROM pets WHERE id = ?`,
  page: `SELECT ${PET_COLUMNS} FROM pets WHERE id > ? ORDER BY id LIMIT ?`,
  // INDEXED BY: whatever statistics say, a page reads about `limit` index entries, even for a
  // rare status at a million rows (a scan in id order would skip every non-matching pet).
  pageByStatus: `SELECT ${PET_COLUMNS} FROM pets INDEXED BY pets_status_id WHERE status = ? AND id > ? ORDER BY id LIMIT ?`,
} as const;

/** Bounds of the read caches: popular pages and pets are read again and again between writes. */
const CACHED_PAGES = 1_000;
const CACHED_PETS = 10_000;

export class SqlitePetStore implements PetStore {
  readonly #insert: Statement<[string, number, PetStatus], Pet>;
  readonly #get: Statement<[number], Pet>;
  readonly #page: Statement<[number, number], Pet>;
  readonly #pageByStatus: Statement<[PetStatus, number, number], Pet>;
  readonly #pages: ReadCache<PetPage>;
  readonly #pets: ReadCache<Pet>;
  readonly #creates: GroupCommit<Required<NewPet>, Pet>;

  constructor(db: Database) {
    this.#insert = db.prepare(PET_QUERIES.insert);
    this.#get = db.prepare(PET_QUERIES.get);
    this.#page = db.prepare(PET_QUERIES.page);
    this.#pageByStatus = db.prepare(PET_QUERIES.pageByStatus);
    // Any commit, by this process or another one, empties them before the next read.
    this.#pages = new ReadCache(changeDetector(db), CACHED_PAGES);
    this.#pets = new ReadCache(changeDetector(db), CACHED_PETS);
    // Group commit: the pets created in one turn of the event loop share one transaction, so one
    // fsync (synchronous = FULL) acknowledges them all instead of one fsync per pet.
    // IMMEDIATE: the write lock is taken (or waited for, busy_timeout) at BEGIN.
    const insertAll = db.transaction((pets: Array<Required<NewPet>>) =>
      pets.map((pet) => {
        // `all`, never `get`: `get` stops at the returned row and resets the statement, which
        // (outside a transaction) commits and drops the commit's error (a full disk), so a pet that
        // was never stored would get its 201. `all` runs the statement to its end.
        const [stored] = this.#insert.all(pet.name, pet.categoryId, pet.status);
        if (!stored) throw new Error('SQLite returned no row for an inserted pet.');
        return stored;
      }),
    ).immediate;
    this.#creates = new GroupCommit((pets) =>
      withSqlite(() => {
        // A batch still queued when the service closed the database (a shutdown past its timeout).
        if (!db.open) throw new StorageUnavailableError('the database is closed');
        // Returns after the COMMIT (synced): a failed commit or insert throws, and rolls back the
        // whole batch, so no pet of it is stored or acknowledged.
        return insertAll(pets);
      }),
    );
  }

  /** Resolves once the pet's transaction has committed; pets created together share one commit. */
  async create(pet: Required<NewPet>): Promise<Pet> {
    // Checked before queueing: a name no engine can store refuses only its own create.
    assertStorableName(pet.name);
    return await this.#creates.submit(pet);
  }

  async get(id: number): Promise<Pet | undefined> {
    return withSqlite(() => this.#pets.get(String(id), () => this.#get.get(id)));
  }

  async list({ limit, status, afterId = 0 }: PetPageQuery): Promise<PetPage> {
    return withSqlite(() =>
      this.#pages.get(`${status ?? ''}:${afterId}:${limit}`, () => {
        // One row beyond the page tells whether another page exists, without counting.
        const rows =
          status === undefined
            ? this.#page.all(afterId, limit + 1)
            : this.#pageByStatus.all(status, afterId, limit + 1);
        return { pets: rows.slice(0, limit), hasMore: rows.length > limit };
      }),
    );
  }
}
