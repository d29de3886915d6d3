// The main path of a contract change, as openapi/README.md ("Adding an operation") describes it,
// on a copy of the repository: a new experimental collection (a list and a create) is added to the
// contract and `npm run generate` is run, and nothing else is written until the server's handler
// table. Then both mocks and the client's MSW handlers serve the collection from the contract, the
// client package builds, the typecheck names the operations the server lacks, and once they are
// marked not implemented the server answers 501 for them. The same copy gives the widgets every
// write (a status with `x-transitions`, `GET`, `PATCH` and `DELETE /widgets/{widgetId}`), a field
// naming a pet (`x-references: /pets`) and the event `widget.deleted`: the mocks and MSW apply the
// change, its transitions, the reference and the removal, and send the event, before any code, and
// one handler-table line per operation has the server do the same.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Contract } from '../../../contract/contract.ts';
import { resolveRef } from '../../../contract/document.ts';
import { type RunningStaticMock, startMock } from '../../../mock/node/server.ts';
import { contractLocations } from '../../../scripts/pipeline/locations.ts';
import { regenerate } from '../../../scripts/pipeline/regenerate.ts';
import { copyRepository, type RepositoryCopy } from '../../../support/repository-copy.ts';
import { defined } from '../../support/defined.ts';
import { bodyOf, connectMcp, texts } from '../../support/mcp.ts';
import { startWebhookReceiver } from '../../support/webhook-receiver.ts';
import {
  addWidgetChanges,
  addWidgetsCollection,
  type WidgetChanges,
  type WidgetsCollection,
} from '../../support/widgets-collection.ts';

/** What a copy needs to generate, typecheck, build the client and run the server and the mocks. */
const COPIED = [
  'contract',
  'core',
  'node',
  'server',
  'mock',
  'client',
  'mcp',
  'scripts',
  'openapi',
  'generated',
  'releases',
  'redocly.yaml',
  'package.json',
  'tsconfig.json',
];

let copy: RepositoryCopy;
let widgets: WidgetsCollection;
let changes: WidgetChanges;
let examples: { list: unknown[]; newWidget: Record<string, unknown> };
const running: ChildProcess[] = [];

beforeAll(async () => {
  copy = await copyRepository(COPIED, 'animal-store-change-path-');
  widgets = await addWidgetsCollection(copy.root);
  changes = await addWidgetChanges(copy.root);
  const generated = await regenerate(contractLocations(copy.root));
  expect(generated.ok, JSON.stringify(generated)).toBe(true);
  // What the mocks answer and accept, as the edited contract's examples say.
  const contract = new Contract(JSON.parse(await readFile(path.join(copy.root, 'generated', 'openapi.json'), 'utf8')));
  const [list, create] = widgets.operations.map(({ operationId }) => contract.operation(operationId));
  const body = defined(create?.definition.requestBody, 'the create’s request body') as {
    content: { 'application/json': { examples: Record<string, unknown> } };
  };
  examples = {
    list: defined(
      Object.values(defined(list, 'the list').responses['200']?.examples ?? {})[0],
      'a list example',
    ) as unknown[],
    newWidget: resolveRef<{ value: Record<string, unknown> }>(
      contract.document,
      defined(Object.values(body.content['application/json'].examples)[0], 'a request body example'),
    ).value,
  };
}, 120_000);

afterAll(async () => {
  for (const child of running) child.kill('SIGKILL');
  await copy?.remove();
});

/**
 * `npm run typecheck`'s first part for the server's sources (and what they import): the part that
 * checks the handler table, without the tests and benches that make the whole run slow. Incremental,
 * so the check after the handler table's edit goes over what the edit changed only.
 */
async function typecheckServer(): Promise<{ code: number | null; output: string }> {
  const config = path.join(copy.root, 'tsconfig.server.json');
  await writeFile(config, JSON.stringify({ extends: './tsconfig.json', include: ['server'] }));
  return run(process.execPath, [
    'node_modules/typescript/bin/tsc',
    '--noEmit',
    '-p',
    config,
    '--incremental',
    '--tsBuildInfoFile',
    path.join(copy.root, 'tsconfig.server.tsbuildinfo'),
  ]);
}

/** Runs a command in the copy to its end: its exit code and everything it printed. */
async function run(
  command: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; output: string }> {
  const child = spawn(command, args, {
    cwd: copy.root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  for (const stream of [child.stdout, child.stderr])
    stream.setEncoding('utf8').on('data', (chunk) => (output += chunk));
  const [code] = (await once(child, 'close')) as [number | null];
  return { code, output };
}

/** Starts a long-running command of the copy and resolves once its output matches `ready`. */
async function start(script: string, env: Record<string, string>, ready: RegExp): Promise<{ output: () => string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: copy.root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.push(child);
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: string) => {
      output += chunk;
      if (ready.test(output)) resolve();
    };
    for (const stream of [child.stdout, child.stderr]) stream.setEncoding('utf8').on('data', onData);
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code} before it was ready:\n${output}`)));
  });
  return { output: () => output };
}

const json = (body: unknown, headers: Record<string, string> = {}) => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

const mergePatch = (body: unknown, headers: Record<string, string> = {}) => ({
  method: 'PATCH',
  headers: { 'Content-Type': 'application/merge-patch+json', ...headers },
  body: JSON.stringify(body),
});

/** A state a widget may go to from `from`, and one it may not (other than `from` itself). */
function movesFrom(from: string): { allowed: string; refused: string } {
  const next = changes.transitions[from] ?? [];
  return {
    allowed: defined(next[0], `a state ${from} may go to`),
    refused: defined(
      changes.states.find((state) => state !== from && !next.includes(state)),
      `a state ${from} may not go to`,
    ),
  };
}

/** The largest id the contract allows, which no pet ever has. */
const NO_PET = 9007199254740991;

/**
 * At `origin` with `headers`: registers a webhook endpoint for the removal's event, creates a
 * widget naming a pet the target holds and one naming none, removes the first and fetches it: the
 * statuses, the refusal's body and the event received.
 */
async function removeAWidget(origin: string, headers: Record<string, string>) {
  const hooks = await startWebhookReceiver();
  try {
    const registered = await fetch(
      `${origin}/v1/webhook-endpoints`,
      json({ url: hooks.url, events: [changes.event] }, headers),
    );
    expect(registered.status).toBe(201);
    const [pet] = (await (await fetch(`${origin}/v1/pets`, { headers })).json()) as Array<{ id: number }>;
    const field = changes.reference.field;
    const named = await fetch(
      `${origin}/v1${widgets.path}`,
      json({ ...examples.newWidget, [field]: defined(pet, 'a pet').id }, headers),
    );
    const widget = (await named.json()) as { id: number };
    const refused = await fetch(
      `${origin}/v1${widgets.path}`,
      json({ ...examples.newWidget, [field]: NO_PET }, headers),
    );
    const url = `${origin}/v1${widgets.path}/${widget.id}`;
    const removed = await fetch(url, { method: 'DELETE', headers });
    const fetched = await fetch(url, { headers });
    await expect.poll(() => hooks.received.length).toBe(1);
    return {
      statuses: { named: named.status, refused: refused.status, removed: removed.status, fetched: fetched.status },
      refusal: await refused.json(),
      event: JSON.parse(defined(hooks.received[0], 'the event').body) as { type: string; data: unknown },
      widget,
    };
  } finally {
    await hooks.close();
  }
}

/** What `removeAWidget` must come to on every target: the reference and the removal as the contract says. */
function expectRemoved(removal: Awaited<ReturnType<typeof removeAWidget>>) {
  expect(removal.statuses).toEqual({ named: 201, refused: 400, removed: 204, fetched: 404 });
  expect(removal.refusal).toMatchObject({
    code: 'validation_failed',
    details: [{ in: 'body', name: changes.reference.field }],
  });
  expect(removal.event).toMatchObject({ type: changes.event, data: removal.widget });
}

/**
 * Creates a widget at `origin` with `headers`, then changes its status as the transitions allow
 * and as they do not: the statuses of the three answers.
 */
async function changeAWidget(origin: string, headers: Record<string, string>) {
  const created = (await (await fetch(`${origin}/v1${widgets.path}`, json(examples.newWidget, headers))).json()) as {
    id: number;
    status: string;
  };
  const { allowed } = movesFrom(created.status);
  // Refused from where the widget then stands.
  const { refused } = movesFrom(allowed);
  const url = `${origin}/v1${widgets.path}/${created.id}`;
  const moved = await fetch(url, mergePatch({ status: allowed }, headers));
  const etag = moved.headers.get('ETag');
  const back = await fetch(url, mergePatch({ status: refused }, headers));
  const stale = await fetch(url, mergePatch({ status: allowed }, { ...headers, 'If-Match': '"0000000000000000"' }));
  return {
    moved: { status: moved.status, body: await moved.json(), etag },
    refused: { status: back.status, code: ((await back.json()) as { code: string }).code },
    stale: stale.status,
    expected: { ...created, status: allowed },
  };
}

describe('a collection added to the contract, after npm run generate alone', () => {
  it('is served by npm run mock from the contract: its examples, validation, and a create carrying what was sent', async () => {
    let mock: RunningStaticMock | undefined;
    try {
      mock = await startMock({ root: copy.root });
      const headers = { Authorization: 'Bearer ask_any_key_works_with_the_mock' };
      const list = await fetch(`${mock.url}/v1${widgets.path}`, { headers });
      expect(list.status).toBe(200);
      expect(await list.json()).toEqual(examples.list);

      const created = await fetch(`${mock.url}/v1${widgets.path}`, json(examples.newWidget, headers));
      expect(created.status).toBe(201);
      expect(await created.json()).toMatchObject({ ...examples.newWidget, id: expect.any(Number) });

      const unknownField = await fetch(
        `${mock.url}/v1${widgets.path}`,
        json({ ...examples.newWidget, colour: 1 }, headers),
      );
      expect(unknownField.status).toBe(400);
      expect(await unknownField.json()).toMatchObject({ code: 'validation_failed', details: [{ name: 'colour' }] });

      const [shown] = examples.list as Array<{ id: number; status: string }>;
      const item = defined(shown, 'a widget the examples show');
      const { allowed, refused } = movesFrom(item.status);
      const url = `${mock.url}/v1${widgets.path}/${item.id}`;
      const moved = await fetch(url, mergePatch({ status: allowed }, headers));
      expect(moved.status).toBe(200);
      expect(await moved.json()).toEqual({ ...item, status: allowed });
      expect(moved.headers.get('ETag')).toMatch(/^"[!#-~]+"$/);
      expect((await fetch(url, mergePatch({ status: refused }, headers))).status).toBe(409);
      expect(
        (await fetch(`${mock.url}/v1${widgets.path}/99999`, mergePatch({ status: allowed }, headers))).status,
      ).toBe(404);
      expect((await fetch(url, { ...mergePatch({ status: allowed }, headers), body: '' })).status).toBe(400);
      const plain = { ...mergePatch({ status: allowed }), headers: { ...headers, 'Content-Type': 'text/plain' } };
      expect((await fetch(url, plain)).status).toBe(415);

      // The static mock keeps nothing: a removal of a widget it shows is answered, and nothing goes.
      expect(await (await fetch(url, { headers })).json()).toEqual(item);
      expect((await fetch(url, { method: 'DELETE', headers })).status).toBe(204);
      expect((await fetch(url, { headers })).status).toBe(200);
      expect((await fetch(`${mock.url}/v1${widgets.path}/99999`, { method: 'DELETE', headers })).status).toBe(404);
      const unnamed = await fetch(
        `${mock.url}/v1${widgets.path}`,
        json({ ...examples.newWidget, [changes.reference.field]: NO_PET }, headers),
      );
      expect(unnamed.status).toBe(400);
      expect(await unnamed.json()).toMatchObject({ details: [{ name: changes.reference.field }] });
    } finally {
      await mock?.close();
    }
  }, 60_000);

  it('is kept by npm run mock:stateful: what is created is listed', async () => {
    const mock = await start('mock/node/stateful-cli.ts', { MOCK_PORT: '0' }, /Ctrl-C to stop/);
    const origin = defined(/on (http:\/\/[^\s]+)\/v1/.exec(mock.output())?.[1], 'the stateful mock’s address');
    const key = defined(/(ask_development_[A-Za-z0-9_]+)/.exec(mock.output())?.[1], 'the development key');
    const headers = { Authorization: `Bearer ${key}` };
    const created = await fetch(`${origin}/v1${widgets.path}`, json(examples.newWidget, headers));
    expect(created.status).toBe(201);
    const widget = await created.json();
    const listed = await fetch(`${origin}/v1${widgets.path}?limit=100`, { headers });
    expect(await listed.json()).toEqual([...examples.list, widget]);

    const changed = await changeAWidget(origin, headers);
    expect(changed.moved).toMatchObject({ status: 200, body: changed.expected });
    expect(changed.refused).toEqual({ status: 409, code: 'invalid_transition' });
    expect(changed.stale).toBe(412);
    expectRemoved(await removeAWidget(origin, headers));
  }, 60_000);

  it('is a tool of npm run mcp, which calls it on its mock, keeping what is created', async () => {
    const session = await connectMcp(['--mock'], { cwd: copy.root });
    try {
      const { tools } = await session.client.listTools();
      const [list, create] = widgets.operations.map(({ operationId }) =>
        defined(
          tools.find((tool) => tool.name === operationId),
          `the tool ${operationId}`,
        ),
      );
      expect(create?.inputSchema.required).toEqual(['body']);
      const call = (name: string, args: Record<string, unknown>) =>
        session.client.callTool({ name, arguments: args }) as Promise<CallToolResult>;
      const created = await call(defined(create, 'the create tool').name, { body: examples.newWidget });
      expect(created.structuredContent, texts(created).join('\n')).toMatchObject(examples.newWidget);
      const listed = await call(defined(list, 'the list tool').name, { limit: 100 });
      expect(bodyOf(listed)).toEqual([...examples.list, created.structuredContent]);
      expect(session.unreadable).toEqual([]);
    } finally {
      await session.close();
    }
  }, 60_000);

  it('builds into the client package, whose MSW handlers serve it, keeping what is created when stateful', async () => {
    const built = await run(process.execPath, ['--import', 'tsx', 'scripts/build-client.ts']);
    expect(built.code, built.output).toBe(0);
    // The package's MSW entry, as a project that installed the package imports it, in Node.
    const script = `
      import { setupServer } from 'msw/node';
      import { createMockHandlers } from './client/dist/msw.js';
      const server = setupServer(...createMockHandlers({ stateful: true, baseUrl: 'http://api.test/v1' }));
      server.listen({ onUnhandledRequest: 'error' });
      const headers = { Authorization: 'Bearer ask_any', 'Content-Type': 'application/json' };
      const url = 'http://api.test/v1${widgets.path}';
      const created = await fetch(url, { method: 'POST', headers, body: ${JSON.stringify(JSON.stringify(examples.newWidget))} });
      const widget = await created.json();
      const listed = await fetch(url + '?limit=100', { headers });
      const patch = (status) => fetch(url + '/' + widget.id, {
        method: 'PATCH',
        headers: { ...headers, 'Content-Type': 'application/merge-patch+json' },
        body: JSON.stringify({ status }),
      });
      const moved = (await patch(${JSON.stringify(changes.transitions.draft?.[0])})).status;
      const refused = (await patch(${JSON.stringify(changes.states[0])})).status;
      const unnamed = (await fetch(url, { method: 'POST', headers, body: JSON.stringify({ ...${JSON.stringify(examples.newWidget)}, ${JSON.stringify(changes.reference.field)}: ${NO_PET} }) })).status;
      const removed = (await fetch(url + '/' + widget.id, { method: 'DELETE', headers })).status;
      const fetched = (await fetch(url + '/' + widget.id, { headers })).status;
      console.log(JSON.stringify({ status: created.status, created: widget, listed: await listed.json(), moved, refused, unnamed, removed, fetched }));
      server.close();
    `;
    await writeFile(path.join(copy.root, 'msw-widgets.mjs'), script);
    const answered = await run(process.execPath, ['msw-widgets.mjs']);
    expect(answered.code, answered.output).toBe(0);
    const { status, created, listed, moved, refused, unnamed, removed, fetched } = JSON.parse(
      defined(answered.output.trim().split('\n').at(-1), 'the answers'),
    );
    expect(status).toBe(201);
    expect(listed).toEqual([...examples.list, created]);
    expect({ moved, refused, unnamed, removed, fetched }).toEqual({
      moved: 200,
      refused: 409,
      unnamed: 400,
      removed: 204,
      fetched: 404,
    });
  }, 120_000);

  it('fails the typecheck, naming each operation the server has no handler for', async () => {
    const checked = await typecheckServer();
    expect(checked.code).not.toBe(0);
    expect(checked.output).toMatch(/server\/app\/handlers\/index\.ts/);
    for (const { operationId } of widgets.operations) expect(checked.output).toContain(operationId);
  }, 180_000);

  it('stops the server’s start in one line on stderr, naming each operation without a handler', async () => {
    const started = await run(process.execPath, ['--import', 'tsx', 'server/process/main.ts'], {
      PORT: '0',
      DATABASE_PATH: ':memory:',
    });
    expect(started.code).toBe(1);
    const lines = started.output.trim().split('\n');
    expect(lines).toHaveLength(1);
    for (const { operationId } of widgets.operations) expect(lines[0]).toContain(operationId);
  }, 60_000);
});

describe('the same collection marked not implemented in the server’s handler table', () => {
  let server: { output: () => string };
  let origin: string;

  beforeAll(async () => {
    const table = path.join(copy.root, 'server', 'app', 'handlers', 'index.ts');
    const marked = [...widgets.operations.map(({ operationId }) => operationId), ...changes.operationIds]
      .map((operationId) => `    ${operationId}: notImplemented,\n`)
      .join('');
    const source = (await readFile(table, 'utf8'))
      .replace(
        "import type { Handler, Handlers } from '../../../core/http-types.ts';",
        "import { type Handler, type Handlers, notImplemented } from '../../../core/http-types.ts';",
      )
      .replace(/( {4}getHealth: )/, `${marked}$1`);
    await writeFile(table, source);
    server = await start(
      'server/process/main.ts',
      { HOST: '127.0.0.1', PORT: '0', DATABASE_PATH: path.join(copy.root, 'data', 'store.db'), LOG_LEVEL: 'warn' },
      /listening on http:\/\/[^\s]+\/v1/,
    );
    origin = defined(/listening on (http:\/\/[^\s]+)\/v1/.exec(server.output())?.[1], 'the server’s address');
  }, 120_000);

  it('passes the typecheck', async () => {
    const checked = await typecheckServer();
    expect(checked.code, checked.output).toBe(0);
  }, 180_000);

  it('is answered 501 not_implemented, naming the operation, and listed in one warning at start-up', async () => {
    const key = defined(
      /(ask_[A-Za-z0-9_-]{16,})/.exec(server.output())?.[1],
      'the development key printed at first start',
    );
    const answer = await fetch(`${origin}/v1${widgets.path}`, { headers: { Authorization: `Bearer ${key}` } });
    expect(answer.status).toBe(501);
    const body = (await answer.json()) as { code: string; message: string };
    expect(body.code).toBe('not_implemented');
    expect(body.message).toContain(widgets.operations[0].operationId);
    const warnings = server
      .output()
      .split('\n')
      .filter((line) => line.includes('operations_not_implemented'));
    expect(warnings).toHaveLength(1);
    for (const { operationId } of widgets.operations) expect(warnings[0]).toContain(operationId);
  });
});

describe('the widgets served by the collection layer: one handler-table line per operation', () => {
  let origin: string;
  let key: string;

  beforeAll(async () => {
    const table = path.join(copy.root, 'server', 'app', 'handlers', 'index.ts');
    const operationIds = [...widgets.operations.map(({ operationId }) => operationId), ...changes.operationIds];
    let source = await readFile(table, 'utf8');
    for (const operationId of operationIds)
      source = source.replace(`${operationId}: notImplemented,`, `${operationId}: collection('${operationId}'),`);
    await writeFile(
      table,
      source
        .replace(', notImplemented }', ' }')
        .replace('{ type Handler, type Handlers }', 'type { Handler, Handlers }'),
    );
    const server = await start(
      'server/process/main.ts',
      {
        HOST: '127.0.0.1',
        PORT: '0',
        DATABASE_PATH: path.join(copy.root, 'data', 'served.db'),
        LOG_LEVEL: 'warn',
        // The test's webhook receiver listens on loopback.
        WEBHOOKS_ALLOW_PRIVATE: '1',
      },
      /listening on http:\/\/[^\s]+\/v1/,
    );
    origin = defined(/listening on (http:\/\/[^\s]+)\/v1/.exec(server.output())?.[1], 'the server’s address');
    key = defined(/(ask_[A-Za-z0-9_-]{16,})/.exec(server.output())?.[1], 'the development key printed at first start');
  }, 120_000);

  it('passes the typecheck', async () => {
    const checked = await typecheckServer();
    expect(checked.code, checked.output).toBe(0);
  }, 180_000);

  it('stores widgets in a table of their own and applies the transitions, ETag and If-Match the contract states', async () => {
    const changed = await changeAWidget(origin, { Authorization: `Bearer ${key}` });
    expect(changed.moved).toMatchObject({ status: 200, body: changed.expected });
    expect(changed.refused).toEqual({ status: 409, code: 'invalid_transition' });
    expect(changed.stale).toBe(412);
  });

  it('checks the reference to a pet, removes a widget and sends its widget.deleted event', async () => {
    const headers = { Authorization: `Bearer ${key}` };
    // The server starts empty: a pet for the widget to name.
    expect((await fetch(`${origin}/v1/pets`, json({ name: 'Rex', categoryId: 1 }, headers))).status).toBe(201);
    expectRemoved(await removeAWidget(origin, headers));
  });
});
