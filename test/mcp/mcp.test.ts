// npm run mcp as an agent's MCP client meets it: the SDK's own Client starts `npm run --silent mcp`
// over stdio, lists one tool per operation of the contract, and calls a collection's list, create,
// fetch, change and delete against the server and against --mock, each result checked against the
// contract's schemas. An argument the contract refuses is refused before any request, in the
// server's words; an Error answer is a tool error with the Error body; a 429 says when to retry;
// --read-only offers the GETs alone; a start that cannot work says so in one line on stderr. What
// is listed and called is read from the contract, so a new operation needs no edit here.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../../contract/bundled.ts';
import { collectionsOf } from '../../contract/collections.ts';
import type { ContractOperation } from '../../contract/contract.ts';
import { resolveRef } from '../../contract/document.ts';
import { listen } from '../../node/listen.ts';
import { parameterExample, requestBodyExample } from '../../scripts/docs/code-samples.ts';
import { REPOSITORY_ROOT } from '../../support/repository-copy.ts';
import { jsonContent, namedExamples, requestBody, response } from '../support/contract-document.ts';
import { FIXED_PLANS, planLimits } from '../support/contract-rate-limits.ts';
import { defined } from '../support/defined.ts';
import { bodyOf, connectMcp, type McpSession, texts } from '../support/mcp.ts';
import { accepts, validatorFor } from '../support/schema-validator.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

const contract = loadContract();
const collection = defined(
  collectionsOf(contract).find((found) => found.list && found.create && found.fetch && found.update && found.delete),
  'a collection with a list, a create, a fetch, a change and a delete',
);
const roles = {
  list: defined(collection.list, 'the list'),
  create: defined(collection.create, 'the create'),
  fetch: defined(collection.fetch, 'the fetch'),
  update: defined(collection.update, 'the change'),
  delete: defined(collection.delete, 'the delete'),
};
const idParameter = defined(collection.idParameter, 'the id parameter');

/** The first named example of an operation's request body, or of one of its answers. */
const bodyExample = (operation: ContractOperation) =>
  defined(namedExamples(jsonContent(defined(requestBody(operation.operationId), 'a body')))[0], 'a body example')[1]
    .value as Record<string, unknown>;
const answerExample = (operation: ContractOperation, status: string) =>
  defined(namedExamples(jsonContent(response(operation.operationId, status)))[0], `a ${status} example`)[1].value as {
    code: string;
  };

/** The operation's first success status and the schema of its JSON body, a node of the contract. */
function success(operation: ContractOperation): { status: string; schema: object | undefined } {
  const status = defined(
    Object.keys(operation.responses).find((candidate) => candidate.startsWith('2')),
    'a success status',
  );
  const content = response(operation.operationId, status).content;
  return {
    status,
    schema: content === undefined ? undefined : (jsonContent(response(operation.operationId, status)).schema as object),
  };
}

/** The answer is a success, its body as the contract's schema for it says. */
function expectSuccess(operation: ContractOperation, result: CallToolResult): unknown {
  expect(result.isError, texts(result).join('\n')).toBeFalsy();
  const { schema } = success(operation);
  if (schema === undefined) return undefined;
  const body = bodyOf(result);
  const validate = validatorFor(schema);
  expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
  return body;
}

/** The answer is a tool error carrying the contract's Error body. */
function expectErrorBody(result: CallToolResult): { code: string; status: number } {
  expect(result.isError).toBe(true);
  const body = bodyOf(result) as { code: string; status: number };
  expect(accepts(defined(contract.document.components?.schemas?.Error, 'the Error schema') as object, body)).toBe(true);
  return body;
}

let app: TestApp;
let baseUrl: string;
let closeListener: () => Promise<void>;

beforeAll(async () => {
  app = await createTestApp();
  const listening = await listen(app.app.fetch, '127.0.0.1', 0, { maxBodyBytes: contract.largestBodyBytes });
  baseUrl = `${listening.origin}${contract.basePath}`;
  closeListener = listening.close;
});

afterAll(async () => {
  await closeListener?.();
  await app?.close();
});

/** Sends what a tool would to the server directly: its own answer, to compare the tool's with. */
async function serverAnswer(operation: ContractOperation, init: { body?: unknown } = {}): Promise<unknown> {
  const answer = await fetch(`${baseUrl}${operation.path}`, {
    method: operation.method,
    headers: { Authorization: `Bearer ${app.apiKey}`, 'Content-Type': operation.bodyMediaType ?? 'application/json' },
    ...(init.body !== undefined && { body: JSON.stringify(init.body) }),
  });
  return answer.json();
}

describe.each([
  ['the server', () => ({ args: ['--base-url', baseUrl], env: { ANIMAL_STORE_API_KEY: app.apiKey } })],
  ['--mock', () => ({ args: ['--mock'], env: {} })],
])('npm run mcp against %s', (_target, start) => {
  let session: McpSession;
  const call = (name: string, args: Record<string, unknown>) =>
    session.client.callTool({ name, arguments: args }) as Promise<CallToolResult>;

  beforeAll(async () => {
    const { args, env } = start();
    session = await connectMcp(args, { env });
  });

  afterAll(async () => {
    await session?.close();
    // Anything but protocol messages on stdout would have reached the transport as unreadable.
    expect(session?.unreadable).toEqual([]);
  });

  it('lists one tool per operation of the contract, named by its operationId and titled by its summary', async () => {
    const { tools } = await session.client.listTools();
    expect(tools.map((tool) => [tool.name, tool.title])).toEqual(
      contract.operations.map((operation) => [operation.operationId, operation.definition.summary]),
    );
  });

  it('takes the path and query parameters and the body as arguments, and answers as the success schema says where it is an object', async () => {
    const { tools } = await session.client.listTools();
    for (const operation of contract.operations) {
      const tool = defined(
        tools.find((candidate) => candidate.name === operation.operationId),
        operation.operationId,
      );
      const parameters = operation.parameters.filter((parameter) => ['path', 'query'].includes(parameter.in));
      expect(Object.keys(tool.inputSchema.properties ?? {}), operation.operationId).toEqual([
        ...parameters.map((parameter) => parameter.name),
        ...(operation.bodySchema ? ['body'] : []),
      ]);
      const { schema } = success(operation);
      const isObject =
        schema !== undefined && resolveRef<{ type?: unknown }>(contract.document, schema).type === 'object';
      expect(tool.outputSchema !== undefined, operation.operationId).toBe(isObject);
    }
  });

  it.each([
    ['GET', { readOnlyHint: true, destructiveHint: false, idempotentHint: true }],
    ['DELETE', { readOnlyHint: false, destructiveHint: true, idempotentHint: true }],
    ['PATCH', { readOnlyHint: false, destructiveHint: false, idempotentHint: false }],
    // Every create the tool sends carries an Idempotency-Key, which the service answers once.
    ['POST', { readOnlyHint: false, destructiveHint: false, idempotentHint: true }],
  ])('hints each %s operation as HTTP says', async (method, hints) => {
    const { tools } = await session.client.listTools();
    const named = contract.operations
      .filter((operation) => operation.method === method)
      .map((operation) => operation.operationId);
    expect(named.length).toBeGreaterThan(0);
    for (const name of named)
      expect(
        defined(
          tools.find((tool) => tool.name === name),
          name,
        ).annotations,
        name,
      ).toEqual(hints);
  });

  it('describes each operation with its stability, and a deprecated one with its sunset and successor', async () => {
    const { tools } = await session.client.listTools();
    for (const operation of contract.operations) {
      const { description = '' } = defined(
        tools.find((tool) => tool.name === operation.operationId),
        operation.operationId,
      );
      const { definition } = operation;
      if (typeof definition['x-stability'] === 'string')
        expect(description).toContain(`Stability: ${definition['x-stability']}`);
      if (operation.deprecation)
        expect(description).toContain(
          `removed on ${operation.deprecation.sunsetDate}; use the tool ${definition['x-successor']} instead`,
        );
    }
  });

  it('lists, creates, fetches, changes and deletes an item, each answer as the contract says, and a fetch of it then is an Error answer', async () => {
    const listed = await call(roles.list.operationId, {});
    expectSuccess(roles.list, listed);

    const created = await call(roles.create.operationId, { body: bodyExample(roles.create) });
    const item = expectSuccess(roles.create, created) as Record<string, unknown>;
    expect(created.structuredContent).toEqual(item);
    expect(item).toMatchObject(bodyExample(roles.create));
    const id = { [idParameter]: item.id };

    const fetched = await call(roles.fetch.operationId, id);
    expect(expectSuccess(roles.fetch, fetched)).toEqual(item);

    const change = bodyExample(roles.update);
    const changed = await call(roles.update.operationId, { ...id, body: change });
    expect(expectSuccess(roles.update, changed)).toEqual({ ...item, ...change });
    expect(changed.structuredContent).toEqual({ ...item, ...change });

    const deleted = await call(roles.delete.operationId, id);
    expectSuccess(roles.delete, deleted);
    expect(deleted.structuredContent).toBeUndefined();

    const gone = await call(roles.fetch.operationId, id);
    expect(expectErrorBody(gone)).toMatchObject({ code: answerExample(roles.fetch, '404').code, status: 404 });
  });

  it('calls every operation with the examples of its required arguments, each answered as the contract declares', async () => {
    for (const operation of contract.operations) {
      const args: Record<string, unknown> = {};
      for (const parameter of operation.parameters)
        if (parameter.required && parameter.in !== 'header')
          args[parameter.name] = defined(
            parameterExample(contract.document, { schema: parameter.schema }),
            `an example of ${operation.operationId}'s ${parameter.name}`,
          );
      const body = requestBodyExample(contract.document, operation.definition);
      if (body !== undefined) args.body = body.value;
      const result = await call(operation.operationId, args);
      if (result.isError)
        expect(Object.keys(operation.responses), operation.operationId).toContain(
          String(expectErrorBody(result).status),
        );
      else expectSuccess(operation, result);
    }
  });

  it('offers the next page of a list as the arguments of the same tool', async () => {
    for (const _ of [1, 2]) await call(roles.create.operationId, { body: bodyExample(roles.create) });
    const first = await call(roles.list.operationId, { limit: 1 });
    const more = defined(texts(first)[1], 'a line about the next page');
    const nextArguments = JSON.parse(defined(/with (\{.*\})\.$/.exec(more)?.[1], 'the arguments')) as Record<
      string,
      unknown
    >;
    const second = await call(roles.list.operationId, nextArguments);
    const [firstItem] = bodyOf(first) as Array<{ id: number }>;
    const [secondItem] = bodyOf(second) as Array<{ id: number }>;
    expect(defined(secondItem, 'an item on the second page').id).toBeGreaterThan(defined(firstItem, 'an item').id);
  });
});

describe('npm run mcp refusing before any request', () => {
  let session: McpSession;

  beforeAll(async () => {
    session = await connectMcp(['--base-url', baseUrl], { env: { ANIMAL_STORE_API_KEY: app.apiKey } });
  });

  afterAll(async () => {
    await session?.close();
  });

  const requestsSeen = () => app.logLines.filter((line) => line.includes('"path":')).length;

  it('refuses a body the contract refuses with the Error body the server answers, and sends nothing', async () => {
    const invalid = {};
    const before = requestsSeen();
    const result = (await session.client.callTool({
      name: roles.create.operationId,
      arguments: { body: invalid },
    })) as CallToolResult;
    expect(requestsSeen()).toBe(before);
    const refusal = expectErrorBody(result);
    expect(refusal).toEqual(await serverAnswer(roles.create, { body: invalid }));
  });

  it('refuses an argument the tool does not take, naming it and the ones it takes', async () => {
    const result = (await session.client.callTool({
      name: roles.list.operationId,
      arguments: { colour: 'brown' },
    })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(texts(result)[0]).toMatch(/no argument `colour`; its arguments are `\w+`/);
  });
});

describe('npm run mcp --read-only with a key whose window is used up', () => {
  const plan = defined(FIXED_PLANS[0], 'a plan with fixed limits');
  let session: McpSession;
  let retryAfter: string | null = null;

  beforeAll(async () => {
    const { secret } = await app.keys.create({ plan });
    // The test app's clock stands still: the window stays used up for the whole test.
    for (let sent = 0; sent <= planLimits(plan).perMinute && retryAfter === null; sent += 1) {
      const answer = await fetch(`${baseUrl}${roles.list.path}`, { headers: { Authorization: `Bearer ${secret}` } });
      await answer.body?.cancel();
      if (answer.status === 429) retryAfter = answer.headers.get('Retry-After');
    }
    session = await connectMcp(['--read-only', '--base-url', baseUrl], { env: { ANIMAL_STORE_API_KEY: secret } });
  });

  afterAll(async () => {
    await session?.close();
  });

  it('offers the operations that change nothing alone', async () => {
    const { tools } = await session.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(
      contract.operations.filter((operation) => operation.method === 'GET').map((operation) => operation.operationId),
    );
  });

  it('refuses to call an operation that changes data', async () => {
    await expect(
      session.client.callTool({ name: roles.create.operationId, arguments: { body: bodyExample(roles.create) } }),
    ).rejects.toThrow(/read-only/);
  });

  it('answers a 429 as a tool error that says when to retry, and does not retry', async () => {
    expect(retryAfter).toMatch(/^\d+$/);
    const before = app.logLines.length;
    const result = (await session.client.callTool({ name: roles.list.operationId, arguments: {} })) as CallToolResult;
    expect(expectErrorBody(result)).toMatchObject({ code: answerExample(roles.list, '429').code, status: 429 });
    expect(texts(result)[1]).toContain(`Retry after ${retryAfter} seconds`);
    // One access line: the one request the call sent.
    expect(app.logLines.slice(before).filter((line) => line.includes('"path":'))).toHaveLength(1);
  });
});

/** Runs `npm run --silent mcp` to its end with nothing on stdin: its exit code and what it wrote. */
async function runToExit(args: string[], env: Record<string, string>) {
  const child = spawn('npm', ['run', '--silent', 'mcp', '--', ...args], {
    cwd: REPOSITORY_ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const [code] = (await once(child, 'close')) as [number | null];
  return { code, stdout, stderr };
}

/** A local port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

/** The server's own refusal of a key it does not know: the sentence its 401 says. */
async function refusalOf(key: string): Promise<string> {
  const answer = await fetch(`${baseUrl}${roles.list.path}`, { headers: { Authorization: `Bearer ${key}` } });
  return ((await answer.json()) as { message: string }).message;
}

describe('npm run mcp, a start that cannot work', () => {
  const refusedKey = 'ask_no_such_key';
  it.each([
    [
      'no key without --mock',
      async () => ({ args: ['--base-url', baseUrl], env: {} }),
      2,
      async () => 'ANIMAL_STORE_API_KEY is not set',
    ],
    [
      'a base URL that does not answer',
      async () => ({
        args: ['--base-url', `http://127.0.0.1:${await closedPort()}/v1`],
        env: { ANIMAL_STORE_API_KEY: refusedKey },
      }),
      1,
      async () => 'does not answer',
    ],
    [
      'a key the server refuses',
      async () => ({ args: ['--base-url', baseUrl], env: { ANIMAL_STORE_API_KEY: refusedKey } }),
      1,
      async () => `refuses ANIMAL_STORE_API_KEY: ${await refusalOf(refusedKey)}`,
    ],
    [
      '--mock beside --base-url',
      async () => ({ args: ['--mock', '--base-url', baseUrl], env: {} }),
      2,
      async () => 'exclude each other',
    ],
  ])('says so for %s in one line on stderr, and nothing on stdout', async (_case, given, code, saying) => {
    const { args, env } = await given();
    const ended = await runToExit(args, env);
    expect(ended).toMatchObject({ code, stdout: '' });
    expect(ended.stderr.trimEnd().split('\n')).toEqual([expect.stringContaining(await saying())]);
  });
});
