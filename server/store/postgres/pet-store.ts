import type pg from 'pg';
import type { NewPet, Pet, PetPage, PetPageQuery, PetStore } from '../pet-store.ts';
import { assertStorableName } from '../storable-name.ts';
import { execute, type NamedStatement } from './statements.ts';

const PET_COLUMNS = 'id, name, category_id AS "categoryId", status';

/** The statements of the store, exported so tests can check how PostgreSQL plans them. */
export const PET_STATEMENTS = {
  insert: {
    name: 'pets.insert',
    text: `INSERT INTO pets (name, category_id, status) VALUES ($1, $2, $3) RETURNING ${PET_COLUMNS}`,
  },
  get: { name: 'pets.get', text: `SELECT ${PET_COLUMNS} FROM pets WHERE id = $1` },
  page: { name: 'pets.page', text: `SELECT ${PET_COLUMNS} FROM pets WHERE id > $1 ORDER BY id LIMIT $2` },
  // The (status, id) index yields a status's pets in id order from afterId on: `limit` entries read.
  pageByStatus: {
    name: 'pets.page-by-status',
    text: `SELECT ${PET_COLUMNS} FROM pets WHERE status = $1 AND id > $2 ORDER BY id LIMIT $3`,
  },
} as const satisfies Record<string, NamedStatement>;

/**
 * Pets in PostgreSQL, shared by every instance of the service. No read cache: another instance
 * may write at any moment, and an indexed lookup is about as fast as asking whether it did.
 */
export class PostgresPetStore implements PetStore {
  readonly #pool: pg.Pool;

  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  async create(pet: Required<NewPet>): Promise<Pet> {
    assertStorableName(pet.name);
    if (pet.name.includes('\0')) {
      throw new RangeError('A pet name with U+0000 cannot be stored: PostgreSQL text holds no NUL character.');
    }
    // A single statement outside a transaction commits before PostgreSQL answers, so the pet is
    // stored (flushed to PostgreSQL's log, with the default synchronous_commit) once this resolves.
    const { rows } = await execute<Pet>(this.#pool, PET_STATEMENTS.insert, [pet.name, pet.categoryId, pet.status]);
    const [stored] = rows;
    if (!stored) throw new Error('PostgreSQL returned no row for an inserted pet.');
    return stored;
  }

  async get(id: number): Promise<Pet | undefined> {
    const { rows } = await execute<Pet>(this.#pool, PET_STATEMENTS.get, [id]);
    return rows[0];
  }

  async list({ limit, status, afterId = 0 }: PetPageQuery): Promise<PetPage> {
    // One row beyond the page tells whether another page exists, without counting.
    const { rows } =
      status === undefined
        ? await execute<Pet>(this.#pool, PET_STATEMENTS.page, [afterId, limit + 1])
        : await execute<Pet>(this.#pool, PET_STATEMENTS.pageByStatus, [status, afterId, limit + 1]);
    return { pets: rows.slice(0, limit), hasMore: rows.length > limit };
  }
}
