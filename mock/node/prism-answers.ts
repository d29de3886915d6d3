// Prism, as a library in this process, answers with a declared response of the contract: the one
// a scenario or `Prefer` names, from its examples or generated from its schema.
import { createRequire } from 'node:module';
import { type Collection, collectionsOf } from '../../contract/collections.ts';
import type { Contract } from '../../contract/contract.ts';
import type { Item } from '../../core/collections/store.ts';
import type { AnswerRequest, DeclaredAnswers } from '../app/declared-answers.ts';

export interface PrismAnswers extends DeclaredAnswers {
  /**
   * For each collection of the contract (by its name), `count` items generated from its item
   * schema, with the ids 1 to `count`; the same items for the same seed.
   */
  generateData(count: number, seed: string): Promise<Map<string, Item[]>>;
}

let generating: Promise<unknown> = Promise.resolve();

/** FNV-1a: a 32-bit number from a string, to seed faker with. */
function hash(text: string): number {
  let value = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    value ^= text.charCodeAt(index);
    value = Math.imul(value, 0x01000193) >>> 0;
  }
  return value;
}

/** Loads Prism (about a second and a half) and readies it for `contract`. */
export async function prismAnswers(contract: Contract): Promise<PrismAnswers> {
  const [{ createInstance, getHttpOperationsFromSpec }, { createLogger }] = await Promise.all([
    import('@stoplight/prism-http'),
    import('@stoplight/prism-core'),
  ]);
  // Prism requires json-schema-faker and faker as CommonJS; their instances are the ones set here.
  const require = createRequire(import.meta.url);
  const { JSONSchemaFaker } = require('json-schema-faker');
  const { faker } = require('@faker-js/faker') as { faker: { seed(seed: number): void } };
  // A Pet is open to further properties, but the service never sends any, and generated data
  // should not teach a frontend to expect them.
  JSONSchemaFaker.option({ fillProperties: false });
  // Prism resolves the document's references in place: it gets a copy of its own.
  const operations = await getHttpOperationsFromSpec(structuredClone(contract.document));
  const config = {
    mock: { dynamic: false },
    // The app in front has validated the request and checked its key already.
    validateRequest: false,
    validateResponse: false,
    checkSecurity: false,
    errors: false,
    upstreamProxy: undefined,
    isProxy: false,
  } as const;
  const prism = createInstance(config, { logger: createLogger('mock', { enabled: false }) });

  const answer = async ({ operation, path, status, example, dynamic = false, seed }: AnswerRequest) => {
    const result = await prism.request({ method: operation.method.toLowerCase() as 'get', url: { path } }, operations, {
      ...config,
      mock: { code: status, exampleKey: example, dynamic, ...(seed !== undefined && { seed }) },
    })();
    if (result._tag === 'Left') throw result.left;
    const { statusCode, headers = {}, body } = result.right.output;
    return {
      status: statusCode,
      headers: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, String(value)])),
      body,
    };
  };

  const generateItems = async (collection: Collection, count: number, seed: string): Promise<Item[]> => {
    const operation = collection.fetch ?? collection.create;
    if (!operation) throw new Error(`The collection ${collection.path} has no operation that answers one item.`);
    const single = operation === collection.fetch;
    const items: Item[] = [];
    for (let id = 1; id <= count; id += 1) {
      // `x-faker` values come from faker, whose randomness Prism's seed does not reach.
      faker.seed(hash(`${seed}/${collection.name}/${id}`));
      const generated = await answer({
        operation,
        path: single ? `${collection.path}/${id}` : collection.path,
        status: single ? 200 : 201,
        dynamic: true,
        seed: `${seed}/${id}`,
      });
      const body = generated.body as Record<string, unknown>;
      // Only the item's own fields, with the id of its place: what the service would store.
      const fields = collection.fields.flatMap((field) => (field.name in body ? [[field.name, body[field.name]]] : []));
      items.push({ ...Object.fromEntries(fields), id });
    }
    return items;
  };

  return {
    answer,
    generateData(count, seed) {
      const generate = async () => {
        const data = new Map<string, Item[]>();
        for (const collection of collectionsOf(contract))
          data.set(collection.name, await generateItems(collection, count, seed));
        return data;
      };
      // The generators' seeds are global: one generation at a time keeps each one's own.
      const data = generating.then(generate);
      generating = data.then(
        () => undefined,
        () => undefined,
      );
      return data;
    },
  };
}

/**
 * Prism's answers, with Prism loaded on the first request that needs one: most requests are
 * answered by the mock's own handlers, and loading Prism would hold up the mock's first answer.
 */
export function lazyPrismAnswers(contract: Contract): DeclaredAnswers {
  let loading: Promise<PrismAnswers> | undefined;
  return {
    answer: async (request) => {
      loading ??= prismAnswers(contract);
      return (await loading).answer(request);
    },
  };
}
