// The handlers of any collection the contract declares: create, fetch, update (a merge patch,
// checked against the item's ETag and its fields' `x-transitions`), delete (checked against the
// item's ETag), and filtered keyset pages
// with signed cursors and a `Link` to the next page. What they read (ranges, defaults, enums) the
// request validator has checked against the contract already; what they answer is the item as
// stored, so the server, the mocks and the browser mocks answer alike.
import { type Collection, type CollectionRole, collectionRoleOf, serviceNeedOf } from '../../contract/collections.ts';
import type { Contract } from '../../contract/contract.ts';
import type { RequestInput } from '../../contract/request-validator.ts';
import { ApiError, PreconditionError } from '../errors.ts';
import type { AppContext } from '../http-types.ts';
import { createOnce } from '../idempotency/create-once.ts';
import type { CursorCodec } from '../pagination/cursor.ts';
import { entityTag, ifMatchHolds } from './entity-tags.ts';
import { mergePatch } from './merge-patch.ts';
import type { CollectionStore, CollectionStores, FilterValue, Item } from './store.ts';

/**
 * A handler as the app calls it: with the request's validated input, which the generated types
 * narrow for each operation (`Handler<'listPets'>`), so any handler is one.
 */
export type RouteHandler = (c: AppContext, input: never) => Promise<Response>;

type InputHandler = (c: AppContext, input: RequestInput) => Promise<Response>;

/** What no `limit` parameter limits: a list without the paging convention answers every item. */
const EVERY_ITEM = Number.MAX_SAFE_INTEGER;

export interface CollectionHandlerDeps {
  contract: Contract;
  stores: CollectionStores;
  cursors: CursorCodec;
  /**
   * Fill a required field a create does not carry and the contract gives no default with its
   * example, as Prism would (the mocks). Unset for the service, which cannot serve such a create
   * from the contract alone: the handler is then refused when made, naming what is missing.
   */
  fillsUnsentFields?: boolean;
}

/**
 * The handler of `operationId` when it plays a part in a collection (list, create, fetch, update, delete);
 * undefined for an operation that plays no part in a collection.
 */
export function collectionHandler(deps: CollectionHandlerDeps, operationId: string): RouteHandler | undefined {
  const found = collectionRoleOf(deps.contract, operationId);
  if (!found) return undefined;
  const { collection, role } = found;
  const store = deps.stores(collection.name);
  const handlers: Record<CollectionRole, () => InputHandler> = {
    list: () => listItems(collection, store, deps.cursors),
    create: () => createItem(collection, store, deps.fillsUnsentFields === true),
    fetch: () => fetchItem(collection, store),
    update: () => updateItem(collection, store),
    delete: () => deleteItem(collection, store),
  };
  return handlers[role]();
}

function listItems(collection: Collection, store: CollectionStore, cursors: CursorCodec): InputHandler {
  const parameters = new Set(collection.list?.parameters.map((parameter) => parameter.name));
  const pagesByCursor = parameters.has('cursor') && parameters.has('limit');
  return async (c, { query }) => {
    // The validator has filled in the contract's default `limit`.
    const limit = typeof query.limit === 'number' ? query.limit : EVERY_ITEM;
    const filters: Record<string, FilterValue> = {};
    for (const name of collection.filters) {
      const value = query[name];
      if (value !== undefined) filters[name] = value as FilterValue;
    }
    const expected = { collection: collection.name, filters };
    const afterId =
      typeof query.cursor === 'string' ? cursors.decode(query.cursor, expected, collection.filters) : undefined;
    const page = await store.list({ limit, filters, afterId });
    const last = page.items.at(-1);
    if (pagesByCursor && page.hasMore && last) {
      // The next page repeats the request's limit (also when it was the default) and filters.
      const next = new URLSearchParams({ limit: String(limit) });
      for (const [name, value] of Object.entries(filters)) next.set(name, String(value));
      next.set('cursor', cursors.encode({ ...expected, afterId: last.id }));
      c.header('Link', `<${collection.servedPath}?${next}>; rel="next"`);
    }
    return c.json(page.items, 200);
  };
}

function createItem(collection: Collection, store: CollectionStore, fills: boolean): InputHandler {
  const location = collection.create?.responses['201']?.headers.Location !== undefined;
  const need = fills ? undefined : serviceNeedOf(collection);
  // Refused when the handler table is made (at start), never a 500 at request time.
  if (need !== undefined) throw new PreconditionError(need);
  return async (c, { body }) =>
    createOnce(c, store, newItemFields(collection, body as Record<string, unknown>), (item) => ({
      status: 201,
      body: item,
      location: location ? `${collection.servedPath}/${item.id}` : undefined,
    }));
}

function fetchItem(collection: Collection, store: CollectionStore): InputHandler {
  const idParameter = collection.idParameter ?? 'id';
  const tagged = declaresETag(collection.fetch);
  return async (c, { path }) => {
    // The validator has checked that the id is an integer in the contract's range.
    const id = path[idParameter] as number;
    const item = await store.get(id);
    if (!item) throw notFound(collection, id);
    if (tagged) c.header('ETag', entityTag(item));
    return c.json(item, 200);
  };
}

/**
 * A merge patch (RFC 7396) of one item, in one transaction with its checks: `If-Match` against the
 * item's ETag as stored (412), then each changed field that has `x-transitions` (409); setting a
 * field to the value it has is no change. The contract's validator has checked the patch's fields.
 */
function updateItem(collection: Collection, store: CollectionStore): InputHandler {
  const idParameter = collection.idParameter ?? 'id';
  const tagged = declaresETag(collection.update);
  const guarded = collection.fields.filter((field) => field.transitions !== undefined);
  return async (c, { path, body }) => {
    const id = path[idParameter] as number;
    const ifMatch = c.req.header('If-Match');
    const patch = body as Record<string, unknown>;
    const item = await store.update(id, (current) => {
      checkIfMatch(collection, ifMatch, current);
      for (const field of guarded) {
        const from = current[field.name];
        const to = patch[field.name];
        if (to === undefined || to === from) continue;
        const allowed = field.transitions?.[String(from)] ?? [];
        if (!allowed.includes(String(to))) {
          const onward = allowed.length === 0 ? 'it can go nowhere' : `it can go to ${orList(allowed)}`;
          throw new ApiError(
            409,
            'invalid_transition',
            `The ${field.name} of ${collection.noun} ${id} cannot go from \`${String(from)}\` to \`${String(to)}\`; from \`${String(from)}\` ${onward}.`,
          );
        }
      }
      const { id: _, ...fields } = mergePatch(current, patch) as Item;
      return fields;
    });
    if (!item) throw notFound(collection, id);
    if (tagged) c.header('ETag', entityTag(item));
    return c.json(item, 200);
  };
}

/** Removes one item, in one transaction with its `If-Match` check (412); 204, with no body. */
function deleteItem(collection: Collection, store: CollectionStore): InputHandler {
  const idParameter = collection.idParameter ?? 'id';
  return async (c, { path }) => {
    const id = path[idParameter] as number;
    const ifMatch = c.req.header('If-Match');
    const removed = await store.delete(id, (current) => checkIfMatch(collection, ifMatch, current));
    if (!removed) throw notFound(collection, id);
    return c.body(null, 204);
  };
}

/** Refuses a write whose `If-Match` the item as stored no longer matches (412); none given matches any. */
function checkIfMatch(collection: Collection, ifMatch: string | undefined, current: Item): void {
  if (ifMatch === undefined || ifMatchHolds(ifMatch, entityTag(current))) return;
  throw new ApiError(
    412,
    'precondition_failed',
    `If-Match \`${ifMatch.slice(0, 200)}\` does not match the current ETag ${entityTag(current)} of ${collection.noun} ${current.id}; fetch it again and retry.`,
  );
}

function notFound(collection: Collection, id: number): ApiError {
  return new ApiError(404, 'not_found', `No ${collection.noun} has the id ${id}.`);
}

/** Whether the operation's 200 declares an `ETag` header: only then is one sent. */
function declaresETag(operation: Collection['fetch']): boolean {
  return Object.keys(operation?.responses['200']?.headers ?? {}).some((name) => name.toLowerCase() === 'etag');
}

/** `\`a\``, `\`a\` or \`b\``, `\`a\`, \`b\` or \`c\``. */
function orList(values: string[]): string {
  const quoted = values.map((value) => `\`${value}\``);
  return quoted.length > 1 ? `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}` : (quoted[0] ?? '');
}

/**
 * What a create stores: each field of the item as the body sends it, else the item schema's
 * default (an order's `status` is `placed`), else (a field the service sets, on a mock) its
 * example, as Prism makes one up.
 */
function newItemFields(collection: Collection, body: Record<string, unknown>): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const field of collection.fields) {
    const value = body[field.name] ?? field.default ?? (field.required ? field.example : undefined);
    if (value !== undefined) fields[field.name] = value;
  }
  return fields;
}
