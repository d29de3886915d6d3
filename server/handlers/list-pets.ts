import type { Handler } from '../../core/http-types.ts';
import type { CursorCodec } from '../../core/pagination/cursor.ts';
import type { PetStore } from '../store/pet-store.ts';

export function listPets(pets: PetStore, cursors: CursorCodec, collectionPath: string): Handler<'listPets'> {
  return async (c, { query }) => {
    // The validator has filled in the contract's default `limit`.
    const { limit } = query;
    if (limit === undefined) throw new Error('listPets received no limit: the validator fills in its default.');
    const afterId = query.cursor === undefined ? undefined : cursors.decode(query.cursor, query.status);
    const page = await pets.list({ limit, status: query.status, afterId });
    const last = page.pets.at(-1);
    if (page.hasMore && last) {
      const next = new URLSearchParams({ limit: String(limit) });
      if (query.status) next.set('status', query.status);
      next.set('cursor', cursors.encode({ afterId: last.id, status: query.status }));
      c.header('Link', `<${collectionPath}?${next}>; rel="next"`);
    }
    return c.json(page.pets, 200);
  };
}
