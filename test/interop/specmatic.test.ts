// Specmatic, as a consumer of another ecosystem runs it: `specmatic test` on generated/openapi.yaml
// as it is, against the stateful mock and against the server seeded with the contract's examples
// (`npm run db:seed`). Specmatic walks each operation's examples and varies them (the longest
// string, the largest id, every enum member), so some of its requests cannot succeed; every
// scenario must pass or be one of the correct refusals below, judged from what Specmatic sent and
// the items the target held at that moment, not from the answer. Its reports stay in
// dist/specmatic/ for a reader, with refusals.md saying why each failed scenario failed.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../../contract/bundled.ts';
import { type Collection, collectionsOf } from '../../contract/collections.ts';
import type { ContractOperation } from '../../contract/contract.ts';
import { startStatefulMock } from '../../mock/node/stateful-server.ts';
import { REPOSITORY_ROOT } from '../../support/repository-copy.ts';
import { startRealServer } from '../support/conformance/real-server.ts';
import { installed } from '../support/installed.ts';
import { nextLink } from '../support/link-header.ts';
import { validatorFor } from '../support/schema-validator.ts';
import { runSpecmatic, type SpecmaticScenario } from '../support/specmatic.ts';

const java = installed('java', ['-version'], 'apt-get install default-jre-headless', 'test/interop/specmatic.test.ts');
const contract = loadContract();
const collections = collectionsOf(contract);

type Item = Record<string, unknown>;

/** What the target holds, as its answers showed it: each collection's items by id, each item's ETag by path. */
interface Held {
  items: Map<string, Map<string, Item>>;
  etags: Map<string, string>;
}

const pathOnly = (path = '') => path.split('?')[0] ?? '';

/** The collection a served path is of, and the item's id where it names one. */
function located(path: string | undefined): { collection: Collection; id?: string } | undefined {
  const bare = pathOnly(path);
  for (const collection of collections) {
    if (bare === collection.servedPath) return { collection };
    const id = bare.startsWith(`${collection.servedPath}/`) ? bare.slice(collection.servedPath.length + 1) : '';
    if (id !== '' && !id.includes('/')) return { collection, id: decodeURIComponent(id) };
  }
  return undefined;
}

function operationOf({ request }: SpecmaticScenario): ContractOperation | undefined {
  const bare = pathOnly(request.path);
  return contract.operations.find(
    (operation) =>
      operation.method === request.method &&
      new RegExp(`^${operation.servedPath.replace(/\{\w+\}/g, '[^/]+')}$`).test(bare),
  );
}

const heldItem = ({ request }: SpecmaticScenario, held: Held): Item | undefined => {
  const at = located(request.path);
  return at?.id === undefined ? undefined : held.items.get(at.collection.name)?.get(at.id);
};

const bodyOf = ({ request }: SpecmaticScenario): Item =>
  typeof request.body === 'object' && request.body !== null ? (request.body as Item) : {};

/**
 * The answers that are right for what Specmatic sent, by the Error code they carry: each says why
 * the scenario cannot pass, and holds only where the request and the items held show it.
 */
const CORRECT_REFUSALS: Array<{
  code: string;
  reason: string;
  holds(scenario: SpecmaticScenario, held: Held): boolean;
}> = [
  {
    code: 'not_found',
    reason: 'the path names an id Specmatic made up (its schema’s largest, or a random one) that no item has',
    holds: (scenario, held) => located(scenario.request.path)?.id !== undefined && !heldItem(scenario, held),
  },
  {
    code: 'precondition_failed',
    reason: 'If-Match is a string Specmatic made up, not the item’s ETag',
    holds: ({ request }, held) =>
      request.headers['if-match'] !== undefined &&
      request.headers['if-match'] !== held.etags.get(pathOnly(request.path)),
  },
  {
    code: 'invalid_transition',
    reason:
      'the body asks for a value that the field’s x-transitions do not allow from the item’s (an earlier scenario had changed it)',
    holds: (scenario, held) => {
      const item = heldItem(scenario, held);
      const body = bodyOf(scenario);
      return (located(scenario.request.path)?.collection.fields ?? []).some(({ name, transitions }) => {
        const [from, to] = [item?.[name], body[name]];
        return (
          item !== undefined &&
          transitions !== undefined &&
          to !== undefined &&
          to !== from &&
          !transitions[String(from)]?.includes(String(to))
        );
      });
    },
  },
  {
    code: 'validation_failed',
    reason:
      'Specmatic’s body breaks the contract’s schema: it writes no URI where `format: uri` asks for one and repeats members where `uniqueItems` forbids it',
    holds: (scenario) => {
      const schema = operationOf(scenario)?.bodySchema;
      return schema !== undefined && !validatorFor(schema)(scenario.request.body);
    },
  },
  {
    code: 'validation_failed',
    reason: 'the body names an item of another collection (its field’s x-references) by an id Specmatic made up',
    holds: (scenario, held) => {
      const body = bodyOf(scenario);
      return (located(scenario.request.path)?.collection.fields ?? []).some(
        ({ name, references }) =>
          references !== undefined &&
          body[name] !== undefined &&
          !held.items.get(references.name)?.has(String(body[name])),
      );
    },
  },
];

function refusalOf(scenario: SpecmaticScenario, held: Held) {
  const { code } = (scenario.response.body ?? {}) as { code?: unknown };
  return CORRECT_REFUSALS.find((refusal) => refusal.code === code && refusal.holds(scenario, held));
}

/** What a successful answer changed: the item made, fetched, changed or removed, and its ETag. */
function apply({ request, response }: SpecmaticScenario, held: Held): void {
  const status = response.status ?? 0;
  const at = located(request.path);
  if (at === undefined || status < 200 || status >= 300) return;
  const items = held.items.get(at.collection.name) ?? new Map<string, Item>();
  held.items.set(at.collection.name, items);
  const body = response.body as Item | undefined;
  if (request.method === 'DELETE' && at.id !== undefined) {
    items.delete(at.id);
    held.etags.delete(pathOnly(request.path));
    return;
  }
  if (body === undefined || Array.isArray(body) || body.id === undefined) return;
  items.set(String(body.id), body);
  const etag = response.headers.etag;
  if (etag !== undefined) held.etags.set(`${at.collection.servedPath}/${body.id}`, etag);
}

/** Every item of every collection the key sees, and each one's ETag, asked before Specmatic starts. */
async function heldBy(origin: string, key: string): Promise<Held> {
  const held: Held = { items: new Map(), etags: new Map() };
  const headers = { Authorization: `Bearer ${key}` };
  for (const collection of collections.filter(({ list }) => list !== undefined)) {
    const items = new Map<string, Item>();
    held.items.set(collection.name, items);
    for (let page: string | undefined = collection.servedPath; page !== undefined; ) {
      const answer = await fetch(`${origin}${page}`, { headers });
      for (const item of (await answer.json()) as Item[]) items.set(String(item.id), item);
      page = nextLink(answer);
    }
    for (const id of collection.fetch ? items.keys() : []) {
      const path = `${collection.servedPath}/${encodeURIComponent(id)}`;
      const etag = (await fetch(`${origin}${path}`, { headers })).headers.get('ETag');
      if (etag !== null) held.etags.set(path, etag);
    }
  }
  return held;
}

interface Target {
  origin: string;
  key: string;
  close(): Promise<void>;
}

const TARGETS: Array<{ name: string; folder: string; start(): Promise<Target> }> = [
  {
    name: 'the stateful mock',
    folder: 'stateful-mock',
    start: async () => {
      const mock = await startStatefulMock();
      return { origin: mock.url, key: mock.apiKey, close: () => mock.close() };
    },
  },
  {
    name: 'the server seeded with the contract’s examples',
    folder: 'seeded-server',
    start: async () => {
      const server = await startRealServer({ seeded: true });
      return { origin: server.origin, key: server.apiKey, close: () => server.close() };
    },
  },
];

/** `GET /pets/(petId:PetId) -> 200 …` as the contract writes the operation: `GET /pets/{petId}`. */
const operationNamed = (scenario: string) =>
  (/^(\S+ \S+) -> /.exec(scenario)?.[1] ?? scenario).replace(/\((\w+):\w+\)/g, '{$1}');

const shown = (scenario: SpecmaticScenario) =>
  `${scenario.name}: ${scenario.request.method} ${scenario.request.path} ${JSON.stringify(scenario.request.body)} answered ${scenario.response.status} ${JSON.stringify(scenario.response.body)}`;

describe.skipIf(!java).each(TARGETS)('specmatic test against $name', ({ folder, start }) => {
  let target: Target;
  let held: Held;
  let run: Awaited<ReturnType<typeof runSpecmatic>>;
  const reportDir = join(REPOSITORY_ROOT, 'dist/specmatic', folder);

  beforeAll(async () => {
    target = await start();
    held = await heldBy(target.origin, target.key);
    run = await runSpecmatic(`${target.origin}/v1`, target.key, reportDir);
  }, 120_000);

  afterAll(async () => {
    await target?.close();
  });

  it('loads every example of the contract and tests every operation', () => {
    expect(run.output).not.toMatch(/Error loading example/i);
    const tested = new Set(run.scenarios.map(({ name }) => operationNamed(name)));
    expect([...tested].sort()).toEqual(contract.operations.map(({ method, path }) => `${method} ${path}`).sort());
  });

  it('passes every scenario but those refused for a reason of the table, each reason written to refusals.md', async () => {
    const unaccounted: string[] = [];
    const refusals: string[] = [];
    const state: Held = {
      items: new Map([...held.items].map(([name, items]) => [name, new Map(items)])),
      etags: new Map(held.etags),
    };
    for (const scenario of run.scenarios) {
      if (!scenario.passed) {
        const refusal = refusalOf(scenario, state);
        if (refusal === undefined) unaccounted.push(shown(scenario));
        else
          refusals.push(
            `| ${scenario.name.replaceAll('|', '\\|')} | ${scenario.request.method} ${scenario.request.path} | ${scenario.response.status} ${refusal.code} | ${refusal.reason} |`,
          );
      }
      apply(scenario, state);
    }
    await writeFile(
      join(reportDir, 'refusals.md'),
      [
        `# Specmatic's failed scenarios, each a correct answer\n`,
        `${run.scenarios.length} scenarios, ${run.scenarios.filter(({ passed }) => passed).length} passed.\n`,
        '| Scenario | Request | Answer | Why it cannot pass |',
        '| --- | --- | --- | --- |',
        ...refusals,
        '',
      ].join('\n'),
    );
    expect(unaccounted).toEqual([]);
  });

  it('finds the items the target held before it started, the ones the contract’s examples name', () => {
    const fetched = run.scenarios
      .filter(({ passed, request }) => passed && request.method === 'GET')
      .map(({ request }) => located(request.path))
      .filter((at) => at?.id !== undefined);
    for (const collection of collections.filter(({ fetch, name }) => fetch && (held.items.get(name)?.size ?? 0) > 0))
      expect(fetched.map((at) => at?.collection.name)).toContain(collection.name);
  });
});
