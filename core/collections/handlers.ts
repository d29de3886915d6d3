// The handlers of any collection the contract declares: create, fetch, update (a merge patch,
// checked against the item's ETag and its fields' `x-transitions`), delete (checked against the
// item's ETag), and filtered keyset pages with signed cursors and a `Link` to the next page; of an
// owned collection, the request's owner's items alone (owners.ts). What they read (ranges,
// defaults, enums) the request validator has checked against the contract already; what they
// answer is the item as stored, less what that answer does not show (its owner; a field only the
// create shows), so the server, the mocks and the browser mocks answer alike.
import { type Collection, type CollectionRole, collectionRoleOf, serviceNeedOf } from '../../contract/collections.ts';
import type { Contract } from '../../contract/contract.ts';
import type { RequestInput } from '../../contract/request-validator.ts';
import { type ApiError, errors, PreconditionError } from '../errors.ts';
import type { AppContext } from '../http-types.ts';
import { createOnce } from '../idempotency/create-once.ts';
import { answer, answerJson, answerJsonText, setHeader } from '../middleware/answer-headers.ts';
import type { CursorCodec } from '../pagination/cursor.ts';
import { entityTag, ifMatchHolds } from './entity-tags.ts';
import { mergePatch } from './merge-patch.ts';
import { OWNER_FIELD, ownerLimitReached, requestOwner } from './owners.ts';
import type { CollectionStore, CollectionStores, FilterValue, Item, ItemId, Page } from './store.ts';

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
  /**
   * Keep every item of an owned collection (`x-owned-by`) as one owner's: the mocks, which know no
   * key lines (every token is a key of its own there). Unset for the service, which keeps each
   * line's items apart.
   */
  oneOwner?: boolean;
}

/**
 * What a service adds to a create, before it is stored: the fields the contract says the service
 * sets and cannot say how (a secret, the time), after checks of its own (it throws an ApiError to
 * refuse, and nothing is stored).
 */
export type ServiceFields = (c: AppContext, body: Record<string, unknown>) => Promise<Record<string, unknown>>;

export interface CollectionHandlerOptions {
  /** Of a create: the fields the service sets; a create whose item needs them is refused at start without it. */
  serviceFields?: ServiceFields;
}

/**
 * The handler of `operationId` when it plays a part in a collection (list, create, fetch, update, delete);
 * undefined for an operation that plays no part in a collection.
 */
export function collectionHandler(
  deps: CollectionHandlerDeps,
  operationId: string,
  options: CollectionHandlerOptions = {},
): RouteHandler | undefined {
  const found = collectionRoleOf(deps.contract, operationId);
  if (!found) return undefined;
  const { collection: described, role } = found;
  // The mocks' one owner: the collection as if it had none.
  const collection = deps.oneOwner ? withoutOwner(described) : described;
  const store = deps.stores(collection.name);
  const handlers: Record<CollectionRole, () => InputHandler> = {
    list: () => listItems(collection, store, deps.cursors),
    create: () => createItem(collection, store, deps.fillsUnsentFields === true, options.serviceFields),
    fetch: () => fetchItem(collection, store),
    update: () => updateItem(collection, store),
    delete: () => deleteItem(collection, store),
  };
  return handlers[role]();
}

function withoutOwner({ ownedBy: _, ...collection }: Collection): Collection {
  return collection;
}

/** The owner's field, where the collection has owners: `keyLine`. */
function ownerField(collection: Collection): string | undefined {
  return collection.ownedBy && OWNER_FIELD[collection.ownedBy];
}

/**
 * The item as an answer shows it: without its owner, and (but in the create's answer) without
 * the fields only the create shows. The item itself where nothing is hidden, as for most.
 */
function answerOf(collection: Collection, created: boolean): (item: Item) => Item {
  const owner = ownerField(collection);
  const hidden = [...(owner ? [owner] : []), ...(created ? [] : collection.shownOnCreate)];
  if (hidden.length === 0) return (item) => item;
  return (item) => {
    const shown: Item = { ...item };
    for (const name of hidden) delete shown[name];
    return shown;
  };
}

/**
 * Whether the request's owner may see an item: of an owned collection, another owner's item is
 * not found, as one that does not exist; every item of any other.
 */
function ownedBy(collection: Collection, c: AppContext): (item: Item) => boolean {
  const field = ownerField(collection);
  if (field === undefined) return () => true;
  const owner = requestOwner(c, collection);
  return (item) => item[field] === owner;
}

/**
 * What `write` makes of a value the store answers again from its read cache, frozen and shared
 * until a commit: written once (JSON, hashes, signatures) and reused for as long as the value is.
 * What else `write` is given must be decided by the value's cache key.
 */
function writtenOnce<Value extends object, Context extends unknown[], Written>(
  write: (value: Value, ...context: Context) => Written,
): (value: Value, ...context: Context) => Written {
  const written = new WeakMap<Value, Written>();
  return (value, ...context) => {
    let kept = written.get(value);
    if (kept === undefined) {
      kept = write(value, ...context);
      if (Object.isFrozen(value)) written.set(value, kept);
    }
    return kept;
  };
}

function listItems(collection: Collection, store: CollectionStore, cursors: CursorCodec): InputHandler {
  const parameters = new Set(collection.list?.parameters.map((parameter) => parameter.name));
  const pagesByCursor = parameters.has('cursor') && parameters.has('limit');
  const owner = ownerField(collection);
  const shown = answerOf(collection, false);
  // The page's key (its limit, filters and position) decides its Link as well as its items.
  const written = writtenOnce((page: Page, limit: number, filters: Record<string, FilterValue>) => {
    const pageAnswer: { body: string; link?: string } = { body: JSON.stringify(page.items.map(shown)) };
    if (pagesByCursor && page.hasMore && page.position !== undefined) {
      // The next page repeats the request's limit (also when it was the default) and filters.
      const next = new URLSearchParams({ limit: String(limit) });
      for (const [name, value] of Object.entries(filters)) next.set(name, String(value));
      next.set('cursor', cursors.encode({ collection: collection.name, filters, afterId: page.position }));
      pageAnswer.link = `<${collection.servedPath}?${next}>; rel="next"`;
    }
    return pageAnswer;
  });
  return async (c, { query }) => {
    // The validator has filled in the contract's default `limit`.
    const limit = typeof query.limit === 'number' ? query.limit : EVERY_ITEM;
    const filters: Record<string, FilterValue> = {};
    for (const name of collection.filters) {
      const value = query[name];
      if (value !== undefined) filters[name] = value as FilterValue;
    }
    const expected = { collection: collection.name, filters };
    const after =
      typeof query.cursor === 'string' ? cursors.decode(query.cursor, expected, collection.filters) : undefined;
    // The owner is the request's, never the query's: the cursor need not carry it.
    const page = await store.list({
      limit,
      filters: owner ? { ...filters, [owner]: requestOwner(c, collection) } : filters,
      after,
    });
    const { body, link } = written(page, limit, filters);
    if (link !== undefined) setHeader(c, 'Link', link);
    return answerJsonText(c, body, 200);
  };
}

function createItem(
  collection: Collection,
  store: CollectionStore,
  fills: boolean,
  serviceFields: ServiceFields | undefined,
): InputHandler {
  const location = collection.create?.responses['201']?.headers.Location !== undefined;
  const need = fills || serviceFields ? undefined : serviceNeedOf(collection);
  // Refused when the handler table is made (at start), never a 500 at request time.
  if (need !== undefined) throw new PreconditionError(need);
  const owner = ownerField(collection);
  const shown = answerOf(collection, true);
  const limit = collection.ownerLimit;
  return async (c, { body }) => {
    const sent = body as Record<string, unknown>;
    const ownerValue = owner === undefined ? undefined : requestOwner(c, collection);
    // A create at its owner's limit is refused before the service's own work (a name to resolve,
    // say), which would be spent for nothing; the store checks again in its transaction.
    if (owner !== undefined && ownerValue !== undefined && limit && serviceFields) {
      const owned = await store.list({ limit: limit.items, filters: { [owner]: ownerValue } });
      if (owned.items.length >= limit.items) throw ownerLimitReached(collection, limit);
    }
    const fields = { ...newItemFields(collection, sent), ...(await serviceFields?.(c, sent)) };
    if (owner !== undefined) fields[owner] = ownerValue;
    return createOnce(c, store, fields, (item) => ({
      status: 201,
      body: shown(item),
      location: location ? `${collection.servedPath}/${item.id}` : undefined,
    }));
  };
}

function fetchItem(collection: Collection, store: CollectionStore): InputHandler {
  const idParameter = collection.idParameter ?? 'id';
  const tagged = declaresETag(collection.fetch);
  const shown = answerOf(collection, false);
  const written = writtenOnce((item: Item) => ({
    body: JSON.stringify(shown(item)),
    tag: tagged ? entityTag(item) : undefined,
  }));
  return async (c, { path }) => {
    // The validator has checked that the id is of the contract's form (an integer in its range).
    const id = path[idParameter] as ItemId;
    const item = await store.get(id);
    if (!item || !ownedBy(collection, c)(item)) throw notFound(collection, id);
    const { body, tag } = written(item);
    if (tag !== undefined) setHeader(c, 'ETag', tag);
    return answerJsonText(c, body, 200);
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
  const shown = answerOf(collection, false);
  return async (c, { path, body }) => {
    const id = path[idParameter] as ItemId;
    const ifMatch = c.req.header('If-Match');
    const patch = body as Record<string, unknown>;
    const owns = ownedBy(collection, c);
    const item = await store.update(id, (current) => {
      if (!owns(current)) throw notFound(collection, id);
      checkIfMatch(collection, ifMatch, current);
      for (const field of guarded) {
        const from = current[field.name];
        const to = patch[field.name];
        if (to === undefined || to === from) continue;
        const allowed = field.transitions?.[String(from)] ?? [];
        if (!allowed.includes(String(to))) {
          throw errors.invalidTransition(field.name, collection.noun, id, String(from), String(to), allowed);
        }
      }
      const { id: _, ...fields } = mergePatch(current, patch) as Item;
      return fields;
    });
    if (!item) throw notFound(collection, id);
    if (tagged) setHeader(c, 'ETag', entityTag(item));
    return answerJson(c, shown(item), 200);
  };
}

/** Removes one item, in one transaction with its `If-Match` check (412); 204, with no body. */
function deleteItem(collection: Collection, store: CollectionStore): InputHandler {
  const idParameter = collection.idParameter ?? 'id';
  return async (c, { path }) => {
    const id = path[idParameter] as ItemId;
    const ifMatch = c.req.header('If-Match');
    const owns = ownedBy(collection, c);
    const removed = await store.delete(id, (current) => {
      // Another owner's item is not found, and stays.
      if (!owns(current)) throw notFound(collection, id);
      checkIfMatch(collection, ifMatch, current);
    });
    if (!removed) throw notFound(collection, id);
    return answer(c, null, 204);
  };
}

/** Refuses a write whose `If-Match` the item as stored no longer matches (412); none given matches any. */
function checkIfMatch(collection: Collection, ifMatch: string | undefined, current: Item): void {
  if (ifMatch === undefined || ifMatchHolds(ifMatch, entityTag(current))) return;
  throw errors.preconditionFailed(ifMatch, collection.noun, current.id);
}

function notFound(collection: Collection, id: ItemId): ApiError {
  return errors.itemNotFound(collection.noun, id);
}

/** Whether the operation's 200 declares an `ETag` header: only then is one sent. */
function declaresETag(operation: Collection['fetch']): boolean {
  return Object.keys(operation?.responses['200']?.headers ?? {}).some((name) => name.toLowerCase() === 'etag');
}

/** `\`a\``, `\`a\` or \`b\``, `\`a\`, \`b\` or \`c\``. */
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
