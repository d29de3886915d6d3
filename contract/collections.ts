// The collections the contract declares, read from its paths by the API's convention: `POST /x`
// creates an item (201, the item with the `id` the service gave it), `GET /x` lists items (a JSON
// array, paged by `limit` and `cursor`, filtered by query parameters named after item fields) and
// `GET /x/{id}` fetches one, `PATCH /x/{id}` (200, the item) changes one by a merge patch,
// each change of a field with `x-transitions` one its transitions allow, and `DELETE /x/{id}`
// (204) removes one. A field with `x-references` names an item of another collection. Each write
// sends the event the contract's `webhooks` declare for it (`pet.deleted`), if any. An item's `id`
// is an integer the store counts up, or a string of the form its `pattern` gives (`we_` and 22
// base64url characters) the store makes at random. An item schema with `x-owned-by: key-line`
// belongs to the API key's line that created it, which alone sees it, and the create's
// `x-owner-limit` caps how many one line may have. A field the create's answer shows and the
// others do not (a secret) is stored, and shown that once. Storage, the
// generic handlers and the mocks serve any collection from this description, so a new one needs
// no code of its own.

import type { Contract, ContractOperation } from './contract.ts';
import { type JsonObject, type JsonSchema, oncePer, resolveRef } from './document.ts';
import { errorCodes } from './error-codes.ts';
import { webhookEvents } from './webhooks.ts';

export type FieldType = 'integer' | 'number' | 'string' | 'boolean' | 'json';

export interface CollectionField {
  /** As the item schema names it: `categoryId`. */
  name: string;
  /** Where the storage engines keep it: `category_id`. */
  column: string;
  type: FieldType;
  /** Whether the item schema requires it. */
  required: boolean;
  /** The item schema's `default`: what a create that does not send the field stores (`status: placed`). */
  default?: unknown;
  /** The field schema's `x-transitions`: from each value, the values an update may change it to. */
  transitions?: Record<string, string[]>;
  /** The value Prism would make up for it: the schema's first example, else its first enum member. */
  example?: unknown;
  /** The field schema's `x-references`: the collection whose item it names by id (`/pets`). */
  references?: ReferencedCollection;
  /** The field schema's `readOnly`: the service sets it, a request never sends it. */
  readOnly?: true;
}

/** The collection a field names an item of. */
export interface ReferencedCollection {
  /** Its path, as `x-references` gives it: `/pets`. */
  path: string;
  /** Its name in storage: `pets`. */
  name: string;
  /** What one of its items is called in messages: `pet`. */
  noun: string;
}

/** How an item's `id` is made: counted up by the store, or random in the form of its schema's `pattern`. */
export type ItemIdentity = { type: 'integer' } | { type: 'string'; prefix: string; length: number };

/** Whose items are whose: `key-line`, the API key's line that created them (the key and those that replaced it). */
type Owner = 'key-line';

/** The most items one owner may have, and the error code a create beyond it answers (409). */
export interface OwnerLimit {
  items: number;
  code: string;
}

export interface Collection {
  /** The contract's path of the collection: `/store/orders`. */
  path: string;
  /** Its name in storage: the path's segments joined by `_`, `store_orders`. */
  name: string;
  /** The path the service serves: `/v1/store/orders`. */
  servedPath: string;
  /** What one item is called in messages: its schema's name in lower case (`order`). */
  noun: string;
  id: ItemIdentity;
  /** The item's fields other than `id`, in the schema's order: those of the create's answer where it shows more. */
  fields: CollectionField[];
  /** Fields only the create's answer shows (an endpoint's `secret`): stored, never answered again. */
  shownOnCreate: string[];
  /** The item schema's `x-owned-by`: each owner sees its own items alone; everyone sees every item when unset. */
  ownedBy?: Owner;
  /** The create's `x-owner-limit`. */
  ownerLimit?: OwnerLimit;
  /** The list's query parameters that keep only items with that field's value (`status`), in the contract's order. */
  filters: string[];
  list?: ContractOperation;
  create?: ContractOperation;
  fetch?: ContractOperation;
  /** Changes one item by a merge patch: `PATCH` on the item's path answering 200 with the item. */
  update?: ContractOperation;
  /** Removes one item: `DELETE` on the item's path answering 204. */
  delete?: ContractOperation;
  /** The path parameter of the operations on one item that carries the id (`orderId`). */
  idParameter?: string;
  /** The event type each kind of write sends, where the contract's `webhooks` declare one (`deleted`: `pet.deleted`). */
  events: Partial<Record<WriteKind, string>>;
  /**
   * Required fields of the item that the create's body does not carry and the item schema gives no
   * default (a status the service decides): the mocks fill in their example; the service needs a
   * handler of its own to set them.
   */
  setByService: string[];
}

/** The part an operation plays in a collection, and the kind of write it makes, if it writes. */
const ROLES = { list: undefined, create: 'created', fetch: undefined, update: 'updated', delete: 'deleted' } as const;

export type CollectionRole = keyof typeof ROLES;

/** What a write did to an item: the second half of its event's type (`pet.created`). */
export type WriteKind = NonNullable<(typeof ROLES)[CollectionRole]>;

/** Every collection of the contract, in the order of its paths; read once per contract. */
export const collectionsOf: (contract: Contract) => Collection[] = oncePer(readCollections);

/** The collection and the part `operation` plays in it, when it plays one. */
export function collectionRoleOf(
  contract: Contract,
  operationId: string,
): { collection: Collection; role: CollectionRole } | undefined {
  for (const collection of collectionsOf(contract)) {
    for (const role of Object.keys(ROLES) as CollectionRole[]) {
      if (collection[role]?.operationId === operationId) return { collection, role };
    }
  }
  return undefined;
}

function readCollections(contract: Contract): Collection[] {
  const { document } = contract;
  const operations = contract.operations.filter((operation) => !operation.isPublic);
  const itemSchemaOf = (operation: ContractOperation, status: string, inArray: boolean) => {
    const schema = jsonSchema(operation.responses[status]?.definition);
    if (schema === undefined) return undefined;
    const resolved = resolveRef<JsonSchema>(document, schema);
    const item = inArray ? (resolved.type === 'array' ? resolved.items : undefined) : schema;
    return item !== undefined && identityOf(document, item) !== undefined ? (item as JsonSchema) : undefined;
  };

  const declaredEvents = new Set(webhookEvents(document).map((event) => event.type));
  // `item`: the schema the list (else the create) answers with; `created`: the create's, which may show more.
  const byPath = new Map<
    string,
    { item: JsonSchema; created?: JsonSchema; list?: ContractOperation; create?: ContractOperation }
  >();
  for (const operation of operations) {
    const role =
      operation.method === 'POST'
        ? { create: operation, item: itemSchemaOf(operation, '201', false) }
        : operation.method === 'GET'
          ? { list: operation, item: itemSchemaOf(operation, '200', true) }
          : undefined;
    if (role?.item === undefined) continue;
    const known = byPath.get(operation.path);
    byPath.set(operation.path, {
      ...known,
      ...role,
      item: operation.method === 'GET' || known === undefined ? role.item : known.item,
      ...(operation.method === 'POST' && { created: role.item }),
    });
  }

  const referenced = new Map(
    [...byPath].map(([path, { item }]) => [path, { path, name: storageName(path), noun: nounOf(item, path) }]),
  );
  return [...byPath].map(([path, { item, created, list, create }]): Collection => {
    // An operation on one item: `method` on `path/{id}`, answering 200 with the item (or, a delete, 204).
    const onItem = (method: string) =>
      operations.find(
        (operation) =>
          operation.method === method &&
          /^\{[^}/]+\}$/.test(operation.path.slice(path.length + 1)) &&
          operation.path.startsWith(`${path}/`) &&
          (method === 'DELETE'
            ? operation.responses['204'] !== undefined
            : itemSchemaOf(operation, '200', false) !== undefined),
      );
    const fetch = onItem('GET');
    const update = onItem('PATCH');
    const remove = onItem('DELETE');
    const itemPath = (fetch ?? update ?? remove)?.path;
    const noun = nounOf(item, path);
    const events: Partial<Record<WriteKind, string>> = {};
    for (const kind of Object.values(ROLES)) {
      const type = kind && eventType(noun, kind);
      if (type && declaredEvents.has(type)) events[kind] = type;
    }
    const fields = fieldsOf(document, created ?? item, referenced);
    const answered = new Set(fieldsOf(document, item, referenced).map((field) => field.name));
    const fieldNames = new Set(fields.map((field) => field.name));
    const ownedBy = ownerOf(document, created ?? item) ?? ownerOf(document, item);
    const ownerLimit = create && ownerLimitOf(document, create);
    const sent = new Set(
      Object.keys((resolveRef<JsonSchema>(document, create?.bodySchema ?? {}).properties as object | undefined) ?? {}),
    );
    const filters = (list?.parameters ?? [])
      .filter((parameter) => parameter.in === 'query' && fieldNames.has(parameter.name))
      .map((parameter) => parameter.name);
    return {
      path,
      name: storageName(path),
      servedPath: (list ?? create ?? fetch)?.servedPath ?? path,
      noun,
      id: identityOf(document, item) ?? { type: 'integer' },
      fields,
      shownOnCreate: fields.filter((field) => !answered.has(field.name)).map((field) => field.name),
      ...(ownedBy && { ownedBy }),
      ...(ownerLimit && { ownerLimit }),
      events,
      filters,
      setByService: create
        ? fields
            .filter((field) => field.required && field.default === undefined && !sent.has(field.name))
            .map((field) => field.name)
        : [],
      ...(list && { list }),
      ...(create && { create }),
      ...(fetch && { fetch }),
      ...(update && { update }),
      ...(remove && { delete: remove }),
      ...(itemPath && { idParameter: /\{([^}]+)\}$/.exec(itemPath)?.[1] }),
    };
  });
}

/** The collection's name in storage, from its path: `/store/orders` is `store_orders`, `/webhook-endpoints` `webhook_endpoints`. */
function storageName(path: string): string {
  return path.split('/').filter(Boolean).join('_').replaceAll('-', '_');
}

/**
 * One sentence per create of `contract` that the collection layer cannot serve on the service alone
 * (an item field it must set, that the body does not carry, with no default), naming the schema,
 * the field and what to add: what `npm run generate` says. A field marked `readOnly` the author
 * has declared the service's to set, with a handler that sets it: not named.
 */
export function serviceNeeds(contract: Contract): string[] {
  return collectionsOf(contract).flatMap((collection) => {
    const unmarked = collection.fields.filter((field) => !field.readOnly).map((field) => field.name);
    const setByService = collection.setByService.filter((name) => unmarked.includes(name));
    return serviceNeedOf({ ...collection, setByService }) ?? [];
  });
}

/** Why the service cannot serve `collection`'s create from the contract alone, and what to add; undefined when it can. */
export function serviceNeedOf({ create, noun, fields, setByService }: Collection): string | undefined {
  if (create === undefined || setByService.length === 0) return undefined;
  const one = setByService.length === 1;
  const filled = fields
    .filter((field) => setByService.includes(field.name))
    .map((field) => `${field.name}: ${JSON.stringify(field.example ?? null)}`)
    .join(', ');
  return (
    `${create.operationId} creates ${noun}s whose ${setByService.map((name) => `\`${name}\``).join(', ')} ` +
    `${one ? 'is' : 'are'} required, but its request body does not carry ${one ? 'it' : 'them'} and the item schema ` +
    `gives no \`default\`. The mocks fill in ${filled} (its example, else its first enum member); the server needs ` +
    `a \`default\` in the item schema, or a handler of ${create.operationId} in server/app/handlers/index.ts that sets ${one ? 'it' : 'them'}.`
  );
}

function jsonSchema(response: JsonObject | undefined): JsonSchema | undefined {
  const content = response?.content as Record<string, { schema?: JsonSchema }> | undefined;
  return content?.['application/json']?.schema;
}

/** A prefix, then a run of base64url characters: the one form of string id a store makes (`^we_[A-Za-z0-9_-]{22}$`). */
const RANDOM_ID = /^\^([A-Za-z0-9_]*)\[A-Za-z0-9_-\]\{(\d+)\}\$$/;

/** How the item's `id` is made, when it is one a store can make: undefined for any other schema. */
function identityOf(document: object, schema: unknown): ItemIdentity | undefined {
  const resolved = resolveRef<JsonSchema>(document, schema);
  const properties = resolved.properties as Record<string, unknown> | undefined;
  if (properties?.id === undefined) return undefined;
  const id = resolveRef<JsonSchema>(document, properties.id);
  if (id.type === 'integer') return { type: 'integer' };
  const form = id.type === 'string' && typeof id.pattern === 'string' ? RANDOM_ID.exec(id.pattern) : null;
  return form ? { type: 'string', prefix: form[1] ?? '', length: Number(form[2]) } : undefined;
}

/** The create's `x-owner-limit`, whose code must be one of the contract's error codes answered with 409. */
function ownerLimitOf(document: object, create: ContractOperation): OwnerLimit | undefined {
  const limit = create.definition['x-owner-limit'] as OwnerLimit | undefined;
  if (limit === undefined) return undefined;
  if (!errorCodes(document).some(({ code, status }) => code === limit.code && status === 409))
    throw new Error(
      `${create.operationId}'s x-owner-limit refuses with ${limit.code}, which is no error code of the contract answered with 409.`,
    );
  return limit;
}

function ownerOf(document: object, schema: unknown): Owner | undefined {
  const owner = resolveRef<JsonSchema>(document, schema)['x-owned-by'];
  if (owner === undefined) return undefined;
  if (owner !== 'key-line') throw new Error(`x-owned-by is ${JSON.stringify(owner)}; the one owner known is key-line.`);
  return owner;
}

function fieldsOf(
  document: object,
  item: JsonSchema,
  collections: ReadonlyMap<string, ReferencedCollection>,
): CollectionField[] {
  const resolved = resolveRef<JsonSchema>(document, item);
  const required = new Set((resolved.required as string[] | undefined) ?? []);
  return Object.entries((resolved.properties as Record<string, JsonSchema> | undefined) ?? {})
    .filter(([name]) => name !== 'id')
    .map(([name, node]) => {
      // A `default` beside a `$ref` belongs to the property; one inside the referenced schema too.
      const property = resolveRef<JsonSchema>(document, node);
      const fallback = 'default' in node ? node.default : property.default;
      const transitions = (node['x-transitions'] ?? property['x-transitions']) as Record<string, string[]> | undefined;
      const referencedPath = (node['x-references'] ?? property['x-references']) as string | undefined;
      // The lint checks that the path is a collection of the contract.
      const references = referencedPath === undefined ? undefined : collections.get(referencedPath);
      if (referencedPath !== undefined && references === undefined)
        throw new Error(`The field ${name} references ${referencedPath}, which is no collection of the contract.`);
      const examples = [node.examples, property.examples].find(Array.isArray);
      const example =
        examples?.[0] ?? node.example ?? property.example ?? (property.enum as unknown[] | undefined)?.[0];
      return {
        name,
        column: name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`),
        type: fieldType(property),
        required: required.has(name),
        ...(fallback !== undefined && { default: fallback }),
        ...(transitions !== undefined && { transitions }),
        ...(example !== undefined && { example }),
        ...(references !== undefined && { references }),
        ...((node.readOnly ?? property.readOnly) === true && { readOnly: true as const }),
      };
    });
}

function fieldType(schema: JsonSchema): FieldType {
  const type: unknown = schema.type ?? (Array.isArray(schema.enum) ? typeof schema.enum[0] : typeof schema.const);
  switch (type) {
    case 'integer':
    case 'number':
    case 'string':
    case 'boolean':
      return type;
    default:
      return 'json';
  }
}

function nounOf(item: JsonSchema, path: string): string {
  const ref = typeof item.$ref === 'string' ? item.$ref : undefined;
  const name = ref?.slice(ref.lastIndexOf('/') + 1) ?? path.slice(path.lastIndexOf('/') + 1).replace(/s$/, '');
  return name.replace(/(?<=[a-z])(?=[A-Z])/g, ' ').toLowerCase();
}

/** The event a write to a collection reports, by the collection's item noun and what was done: `pet.created`. */
function eventType(noun: string, kind: WriteKind): string {
  return `${noun.replaceAll(' ', '_')}.${kind}`;
}
