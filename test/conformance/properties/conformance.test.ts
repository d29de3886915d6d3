// Property-based conformance of the real server, driven by the contract's schemas: each
// response to a generated request is judged against the contract. A failure names the shrunk
// request (fast-check's counterexample is the request itself) and every problem found.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../../../contract/bundled.ts';
import { collectionRoleOf } from '../../../contract/collections.ts';
import type { OperationId } from '../../../contract/contract.ts';
import type { Pet } from '../../../generated/openapi.ts';
import {
  type ApiRequest,
  type ApiResponse,
  atOrigin,
  describeRequest,
  responseProblems,
  sendUnchecked,
} from '../../support/conformance/client.ts';
import { protectedOperationIds } from '../../support/conformance/example-requests.ts';
import {
  acceptanceProblems,
  bodySchemaOf,
  flawedRequests,
  type Generated,
  rejectionProblems,
  type Schema,
  validRequests,
} from '../../support/conformance/operation-requests.ts';
import { createPets, requestFromLink } from '../../support/conformance/pets.ts';
import type { Endpoint } from '../../support/conformance/target.ts';
import { jsonContent, namedExamples, operations, requestBody, resolve } from '../../support/contract-document.ts';
import { defined } from '../../support/defined.ts';
import { nextLink } from '../../support/link-header.ts';

let requestsSent = 0;

async function exchange(request: ApiRequest, endpoint?: Endpoint): Promise<ApiResponse> {
  requestsSent += 1;
  return sendUnchecked(request, endpoint);
}

/** Throws, naming the request and the response, when a check found problems; fast-check adds the shrunk counterexample. */
function throwIfProblems(request: ApiRequest, response: ApiResponse, problems: string[]): void {
  if (problems.length === 0) return;
  throw new Error(
    `${describeRequest(request)}\n→ ${response.status} ${response.text.slice(0, 300)}\nproblems:\n- ${problems.join('\n- ')}`,
  );
}

/** Every operation behind the API key, as the contract declares them. */
const OPERATION_IDS: OperationId[] = protectedOperationIds;
/** Runs per operation and kind: the stable pets operations most, any other a smaller share. */
const RUNS: Partial<Record<OperationId, { valid: number; flawed: number }>> = {
  createPet: { valid: 150, flawed: 250 },
  listPets: { valid: 150, flawed: 150 },
  getPet: { valid: 120, flawed: 120 },
};
const OTHER_RUNS = { valid: 40, flawed: 40 };
const MINIMUM_REQUESTS = 1_000;

/** Enough animals of each status that listings fill whole pages and fetches by id find some. */
beforeAll(async () => {
  for (const status of ['available', 'pending', 'sold'] as const) await createPets(40, status);
}, 60_000);

/**
 * A removal takes an item created for it, by its collection's create with the contract's first
 * example: the suite's other files use the same server at the same time, and keep their items.
 */
async function onItemOfItsOwn(request: Generated): Promise<Generated> {
  const { collection, role } = collectionRoleOf(loadContract(), request.operationId) ?? {};
  const create = collection?.create;
  if (role !== 'delete' || create === undefined) return request;
  const body = defined(requestBody(create.operationId), `the request body of ${create.operationId}`);
  const [, example] = defined(namedExamples(jsonContent(body))[0], `an example of ${create.operationId}'s body`);
  const created = await exchange({ method: 'POST', path: create.path, json: example.value });
  const { id } = created.body as { id: number };
  return { ...request, path: request.path.replace(/[^/]+$/, String(id)) };
}

interface TaskTree {
  type: string;
  mode: string;
  tasks?: TaskTree[];
}
const testsOf = (task: TaskTree): TaskTree[] => (task.type === 'test' ? [task] : (task.tasks ?? []).flatMap(testsOf));

// biome-ignore lint/correctness/noEmptyPattern: vitest requires a hook's first parameter to be a destructuring pattern; this hook needs only the second
afterAll(({}, file) => {
  // A run filtered to some of the properties sends fewer; only a whole run promises the count.
  if (testsOf(file as TaskTree).some((test) => test.mode !== 'run')) return;
  expect(requestsSent, 'generated requests sent in this run').toBeGreaterThanOrEqual(MINIMUM_REQUESTS);
});

describe.each(OPERATION_IDS)('%s, against its schemas', (operationId) => {
  const { collection, role } = collectionRoleOf(loadContract(), operationId) ?? {};
  // The suite's key line holds at most `x-owner-limit` of such items: each one created here goes again.
  const removesCreated = role === 'create' && collection?.ownerLimit !== undefined && collection.delete !== undefined;
  it('accepts every request its schemas allow, answering as the contract declares', async () => {
    await fc.assert(
      fc.asyncProperty(validRequests(operationId), async (generated) => {
        const request = await onItemOfItsOwn(generated);
        const response = await exchange(request);
        if (removesCreated && response.status === 201)
          await exchange({ method: 'DELETE', path: `${collection?.path}/${(response.body as { id: string }).id}` });
        throwIfProblems(request, response, acceptanceProblems(request, response));
      }),
      { numRuns: (RUNS[operationId] ?? OTHER_RUNS).valid },
    );
  });

  it('rejects every request with one parameter or field its schemas forbid: 400 with the Error body naming it', async () => {
    await fc.assert(
      fc.asyncProperty(flawedRequests(operationId), async (request) => {
        const response = await exchange(request);
        throwIfProblems(request, response, rejectionProblems(request, response));
      }),
      { numRuns: (RUNS[operationId] ?? OTHER_RUNS).flawed },
    );
  });
});

describe('createPet, with integers written as JSON allows', () => {
  /** JSON spellings of one integral value other than plain digits: a zero fraction, an exponent. */
  const spellings = (value: number) => [`${value}.0`, `${value}e0`, `${value}.000E+0`, `${value}0e-1`];
  const bodySchema = resolve(defined(bodySchemaOf('createPet'), "createPet's JSON body schema")) as Schema;
  const integerFields = new Set(
    Object.entries((bodySchema.properties ?? {}) as Record<string, unknown>)
      .filter(([, schema]) => (resolve(schema as Schema) as Schema).type === 'integer')
      .map(([name]) => name),
  );

  it('accepts an integral value written with a fraction or an exponent, and stores the integer', async () => {
    const requests = validRequests('createPet').chain((request) => {
      const pet = request.json as Record<string, unknown>;
      const choices = Object.entries(pet).map(([name, value]) =>
        integerFields.has(name) ? fc.constantFrom(...spellings(value as number)) : fc.constant(JSON.stringify(value)),
      );
      return fc.tuple(...choices).map((texts): Generated => {
        const body = `{${Object.keys(pet)
          .map((name, index) => `${JSON.stringify(name)}:${texts[index]}`)
          .join(',')}}`;
        const { json: _, ...rest } = request;
        return { ...rest, body, headers: { 'Content-Type': 'application/json' } };
      });
    });
    await fc.assert(
      fc.asyncProperty(requests, async (request) => {
        const response = await exchange(request);
        const json = JSON.parse(defined(request.body, 'the text of the request body'));
        const problems = acceptanceProblems({ ...request, json }, response);
        throwIfProblems(request, response, problems);
      }),
      { numRuns: 60 },
    );
  });
});

describe('credentials, methods and storage of every operation', () => {
  /** Unauthenticated requests count against the client address's free-plan window of 60 a minute, which the suite shares. */
  const UNAUTHENTICATED_RUNS = 20;

  const refusedAuthorization = fc.oneof(
    fc.constant(null),
    fc.stringMatching(/^[A-Za-z0-9._~+/-]{1,60}$/).map((token) => `Bearer ${token}`),
    fc.constantFrom('Basic dXNlcjpwYXNz', 'Bearer', 'Token abc', 'Bearer a b'),
  );

  it('answers 401 unauthorized with WWW-Authenticate: Bearer to any request with missing or wrong credentials', async () => {
    const requests = fc
      .tuple(fc.oneof(...OPERATION_IDS.map(validRequests)), refusedAuthorization)
      .map(([request, authorization]): Generated => ({ ...request, authorization }));
    await fc.assert(
      fc.asyncProperty(requests, async (request) => {
        const response = await exchange(request);
        const problems = responseProblems(request.operationId, response);
        if (response.status !== 401) problems.push(`${response.status} instead of 401`);
        else {
          if ((response.body as { code?: string }).code !== 'unauthorized')
            problems.push('the code is not unauthorized');
          if (response.headers.get('WWW-Authenticate') !== 'Bearer') problems.push('no WWW-Authenticate: Bearer');
        }
        throwIfProblems(request, response, problems);
      }),
      { numRuns: UNAUTHENTICATED_RUNS },
    );
  });

  /** As the service serves them: under the base path, or beside the API for the probes. */
  const paths = [...new Set(operations.map((candidate) => candidate.servedPath))];
  const undeclaredMethods = fc.oneof(
    ...paths.map((path) => {
      const declared = operations
        .filter((candidate) => candidate.servedPath === path)
        .map((candidate) => candidate.method);
      const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'].filter(
        (method) => !declared.includes(method),
      );
      const pathValues = fc.stringMatching(/^[1-9][0-9]{0,5}$/);
      return fc
        .tuple(fc.constantFrom(...methods), pathValues)
        .map(([method, id]) => ({ method, path: path.replace(/\{[^}]+\}/g, id), declared }));
    }),
  );

  it('answers 405 method_not_allowed with an Allow header listing the declared methods to any undeclared method', async () => {
    await fc.assert(
      fc.asyncProperty(undeclaredMethods, async ({ declared, ...request }) => {
        const response = await exchange(request, atOrigin());
        const problems = responseProblems(undefined, response);
        if (response.status !== 405) problems.push(`${response.status} instead of 405`);
        else {
          if ((response.body as { code?: string }).code !== 'method_not_allowed')
            problems.push('the code is not method_not_allowed');
          const allowed = (response.headers.get('Allow') ?? '')
            .split(',')
            .map((name) => name.trim())
            .filter((name) => name !== 'HEAD');
          if (allowed.sort().join() !== [...declared].sort().join())
            problems.push(`Allow lists ${response.headers.get('Allow')}, the contract ${declared.join(', ')}`);
        }
        throwIfProblems(request, response, problems);
      }),
      { numRuns: 60 },
    );
  });

  it('finds an animal it created by its id and in the listing of its status', async () => {
    await fc.assert(
      fc.asyncProperty(validRequests('createPet'), async (request) => {
        const created = await exchange(request);
        throwIfProblems(request, created, acceptanceProblems(request, created));
        const pet = created.body as Pet;

        const byId: Generated = { operationId: 'getPet', method: 'GET', path: `/pets/${pet.id}` };
        const fetched = await exchange(byId);
        const problems = responseProblems('getPet', fetched);
        if (fetched.status !== 200 || JSON.stringify(fetched.body) !== JSON.stringify(pet))
          problems.push(`GET by id answered ${fetched.status} ${fetched.text}`);
        throwIfProblems(byId, fetched, problems);

        let page: Generated | undefined = {
          operationId: 'listPets',
          method: 'GET',
          path: '/pets',
          query: { status: pet.status, limit: '100' },
        };
        let found = false;
        while (page && !found) {
          const listed = await exchange(page);
          throwIfProblems(page, listed, acceptanceProblems(page, listed));
          found = (listed.body as Pet[]).some((candidate) => JSON.stringify(candidate) === JSON.stringify(pet));
          const link = nextLink(listed);
          page = link === undefined ? undefined : { operationId: 'listPets', ...requestFromLink(link) };
        }
        if (!found)
          throw new Error(
            `${describeRequest(request)}\ncreated ${JSON.stringify(pet)}, which no page of the listing of status ${pet.status} holds`,
          );
      }),
      { numRuns: 30 },
    );
  });
});
