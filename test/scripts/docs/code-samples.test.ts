// The code samples of the docs (x-codeSamples in the page's copy of the contract), as a reader
// copies them: every @animal-store/client sample type-checked with `tsc --strict` against the
// packed client installed from its tarball, then run with plain Node against the package's own
// mock (its MSW handlers); every curl sample run against the mock of `npm run mock`.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type JsonObject, operationObjects } from '../../../contract/document.ts';
import { type RunningStaticMock, startMock } from '../../../mock/node/server.ts';
import { CLIENT_PACKAGE, type CodeSample } from '../../../scripts/docs/code-samples.ts';
import { forThePage } from '../../../scripts/docs/presentation.ts';
import { REPOSITORY_ROOT } from '../../../support/repository-copy.ts';
import { contract, jsonContent, namedExamples, requestBody } from '../../support/contract-document.ts';
import { defined } from '../../support/defined.ts';

const run = promisify(execFile);
const TSC = path.join(REPOSITORY_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

/** The samples of every operation, as the page's copy of the contract carries them. */
function samplesOf(document: object): Array<{ operationId: string; curl: string; typescript: string }> {
  return operationObjects(forThePage(structuredClone(document))).map(({ definition }) => {
    const samples = definition['x-codeSamples'] as CodeSample[];
    return {
      operationId: String(definition.operationId),
      curl: defined(
        samples.find((sample) => sample.label === 'curl'),
        'a curl sample',
      ).source,
      typescript: defined(
        samples.find((sample) => sample.label === CLIENT_PACKAGE),
        `an ${CLIENT_PACKAGE} sample`,
      ).source,
    };
  });
}

const samples = samplesOf(contract);

/** A project's own settings: strict, no Node types (the samples run in browsers too), no skipLibCheck. */
const TSCONFIG = {
  compilerOptions: {
    strict: true,
    module: 'nodenext',
    target: 'es2022',
    lib: ['es2023', 'dom'],
    types: [],
    outDir: 'out',
  },
  include: ['samples/*.ts'],
};

/** Loaded before a sample runs: the package's MSW handlers answer every request to the API, at any origin. */
const MOCK_SETUP = `
import { createMockHandlers } from '${CLIENT_PACKAGE}/msw';
import { setupServer } from 'msw/node';

setupServer(...createMockHandlers()).listen({ onUnhandledRequest: 'error' });
`;

describe('code samples of every operation in the docs', { timeout: 120_000 }, () => {
  let consumer: string;
  let mock: RunningStaticMock;

  beforeAll(async () => {
    // A project of its own inside the one the packed client was installed into (once per run,
    // test/support/shared-builds.ts), which resolves the package and msw from there.
    consumer = await mkdtemp(path.join(inject('sharedBuilds').consumer, 'samples-'));
    await mkdir(path.join(consumer, 'samples'));
    await writeFile(path.join(consumer, 'tsconfig.json'), JSON.stringify(TSCONFIG));
    await writeFile(path.join(consumer, 'mock-setup.mjs'), MOCK_SETUP);
    for (const sample of samples)
      await writeFile(path.join(consumer, 'samples', `${sample.operationId}.ts`), sample.typescript);
    mock = await startMock();
  }, 240_000);

  afterAll(async () => {
    await mock?.close();
    if (consumer) await rm(consumer, { recursive: true, force: true });
  });

  it('has a curl and a client sample for every operation of the contract', () => {
    expect(samples.map((sample) => sample.operationId)).toEqual(
      operationObjects(contract).map(({ definition }) => definition.operationId),
    );
  });

  it(`type-checks every ${CLIENT_PACKAGE} sample with tsc --strict against the packed client`, async () => {
    await expect(run(process.execPath, [TSC, '-p', consumer])).resolves.toBeDefined();
  });

  it.for(samples.map((sample) => sample.operationId))(
    `runs the ${CLIENT_PACKAGE} sample of %s with plain Node against the package's mock`,
    async (operationId) => {
      const compiled = path.join(consumer, 'out', `${operationId}.js`);
      await expect.poll(() => readFile(compiled, 'utf8').then(Boolean, () => false), { timeout: 60_000 }).toBe(true);
      const { stdout } = await run(process.execPath, ['--import', './mock-setup.mjs', compiled], { cwd: consumer });
      expect(stdout.trim()).not.toBe('');
    },
  );

  it.for(samples)('runs the curl sample of $operationId against the mock of npm run mock', async (sample) => {
    // The samples address the contract's first server; the mock stands in for its origin.
    const local = sample.curl.replace(/https?:\/\/[^/']+/, mock.url);
    expect(local, 'the sample, pointed at the mock').not.toBe(sample.curl);
    // With its status written after the body: an answer without one (a 204) shows something too.
    const { stdout } = await run('sh', [
      '-c',
      `${local} --silent --show-error --fail-with-body --write-out '%{http_code}'`,
    ]);
    expect(stdout.trim()).toMatch(/2\d\d$/);
  });

  it('refuses to compile a sample whose body names a field the client does not know', async () => {
    const renamed = structuredClone(contract) as unknown as JsonObject;
    const createPet = defined(
      operationObjects(renamed).find(({ definition }) => definition.operationId === 'createPet'),
      'createPet',
    );
    const field = defined(Object.keys(bodyExample()).at(0), 'a field of the body example');
    createPet.definition.requestBody = withRenamedField(field, `${field}Renamed`);
    const sample = defined(
      samplesOf(renamed).find((candidate) => candidate.operationId === 'createPet'),
      'the sample of createPet',
    );
    const project = path.join(consumer, 'renamed');
    await mkdir(path.join(project, 'samples'), { recursive: true });
    await writeFile(path.join(project, 'samples', 'createPet.ts'), sample.typescript);
    await writeFile(
      path.join(project, 'tsconfig.json'),
      JSON.stringify({ ...TSCONFIG, compilerOptions: { ...TSCONFIG.compilerOptions, noEmit: true } }),
    );
    await writeFile(path.join(project, 'package.json'), JSON.stringify({ private: true, type: 'module' }));

    const failed = await run(process.execPath, [TSC, '-p', project]).then(
      () => '',
      (error: { stdout: string }) => error.stdout,
    );
    expect(failed).toContain(`'${field}Renamed'`);
  });
});

/** The first example of createPet's request body. */
function bodyExample(): Record<string, unknown> {
  const body = defined(requestBody('createPet'), 'the request body of createPet');
  const [first] = namedExamples(jsonContent(body));
  return defined(first, 'an example of the body of createPet')[1].value as Record<string, unknown>;
}

/** createPet's request body with its example's `field` renamed, as a contract edit leaves it before `npm run generate`. */
function withRenamedField(field: string, renamed: string): JsonObject {
  const { [field]: value, ...rest } = bodyExample();
  return { content: { 'application/json': { example: { [renamed]: value, ...rest } } } };
}
