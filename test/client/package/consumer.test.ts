// The client package as another project uses it: packed with `npm pack ./client`, installed from
// the tarball into a project in a temporary folder (once per run, test/support/shared-builds.ts), its script type-checked with `tsc --strict`
// and run with plain Node (no TypeScript loader) against the real server.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadContract } from '../../../contract/bundled.ts';
import { REPOSITORY_ROOT } from '../../../support/repository-copy.ts';
import { type ListeningApp, startListeningApp } from '../../support/listening-app.ts';

const run = promisify(execFile);
const TSC = path.join(REPOSITORY_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const CLIENT_MANIFEST = path.join(REPOSITORY_ROOT, 'client', 'package.json');

/** The consumer's script, run against `baseUrl`; each `@ts-expect-error` line must fail to compile. */
const appSource = (baseUrl: string, apiKey: string) => `
import { createAnimalStoreClient, type ErrorBody, type NewPet, type Pet, type PetStatus } from '@animal-store/client';

const notices: string[] = [];
const api = createAnimalStoreClient({
  baseUrl: ${JSON.stringify(baseUrl)},
  apiKey: ${JSON.stringify(apiKey)},
  onDeprecation: (notice) => notices.push(notice.operation),
});

export async function mistakes(): Promise<void> {
  // @ts-expect-error a wrong field name: NewPet has no \`nmae\`
  await api.POST('/pets', { body: { nmae: 'Rex', categoryId: 3 } });
  // @ts-expect-error a wrong status value: \`lost\` is no PetStatus
  await api.GET('/pets', { params: { query: { status: 'lost' } } });
  // @ts-expect-error a wrong path: the contract has no /animals
  await api.GET('/animals', {});
}

const status: PetStatus = 'pending';
const rex: NewPet = { name: 'Rex', categoryId: 3, status };
const { data: created, error } = await api.POST('/pets', { body: rex });
if (error) throw new Error(\`\${error.code}: \${error.message}\`);
const { data: fetched } = await api.GET('/pets/{petId}', { params: { path: { petId: created.id } } });
const pending: Pet[] = [];
for await (const pet of api.listAllPets({ status: 'pending', limit: 1 })) pending.push(pet);
const { error: refused } = await api.POST('/pets', { body: { name: '', categoryId: 3 } });
const refusal: ErrorBody | undefined = refused;
console.log(JSON.stringify({ created, fetched, pendingIds: pending.map((pet) => pet.id), refusal, notices }));
`;

/** Type-checked only: overrides of the package's MSW handlers, typed by the contract. */
const mocksSource = `
import type { Pet } from '@animal-store/client';
import { createMockHandlers, http } from '@animal-store/client/msw';
import { HttpResponse } from 'msw';

const rex: Pet = { id: 1, name: 'Rex', categoryId: 3, status: 'available' };

export const handlers = [
  http.get('/pets/{petId}', ({ params }) => HttpResponse.json({ ...rex, id: Number(params.petId) })),
  // @ts-expect-error a body GET /pets/{petId} does not declare
  http.get('/pets/{petId}', () => HttpResponse.json({ nickname: 'Rex' })),
  // @ts-expect-error a path the contract lacks
  http.get('/animals', () => HttpResponse.json([rex])),
  ...createMockHandlers({ scenario: 'empty', stateful: true }),
];
`;

/** A project's own settings: strict, and no `skipLibCheck`, so the package's declarations are checked too. */
const TSCONFIG = {
  compilerOptions: {
    strict: true,
    module: 'nodenext',
    target: 'es2022',
    lib: ['es2023', 'dom'],
    types: [],
    outDir: 'out',
  },
  files: ['app.ts', 'mocks.ts'],
};

describe('@animal-store/client installed from its tarball', { timeout: 60_000 }, () => {
  let consumer: string;
  let packageDir: string;
  let tarball: string;
  let server: ListeningApp;

  beforeAll(async () => {
    const shared = inject('sharedBuilds');
    tarball = shared.tarball;
    // A project of its own inside the one the tarball was installed into, which resolves the package from there.
    consumer = await mkdtemp(path.join(shared.consumer, 'app-'));
    packageDir = path.join(shared.consumer, 'node_modules', '@animal-store', 'client');
    server = await startListeningApp();
    await writeFile(path.join(consumer, 'app.ts'), appSource(`${server.origin}/v1`, server.apiKey));
    await writeFile(path.join(consumer, 'mocks.ts'), mocksSource);
    await writeFile(path.join(consumer, 'tsconfig.json'), JSON.stringify(TSCONFIG));
  }, 240_000);

  afterAll(async () => {
    await server?.close();
    if (consumer) await rm(consumer, { recursive: true, force: true });
  });

  it('ships the build and its manifest only, with openapi-fetch and standardwebhooks its dependencies and msw an optional peer', async () => {
    const { stdout } = await run('tar', ['-tzf', tarball]);
    const files = stdout.trim().split('\n');
    expect(files.filter((file) => !file.startsWith('package/dist/'))).toEqual(['package/package.json']);
    expect(files).toEqual(
      expect.arrayContaining(['package/dist/index.js', 'package/dist/msw.js', 'package/dist/types/client/index.d.ts']),
    );
    const installed = JSON.parse(await readFile(path.join(packageDir, 'package.json'), 'utf8'));
    expect(Object.keys(installed.dependencies)).toEqual(['openapi-fetch', 'standardwebhooks']);
    expect(installed.peerDependencies).toEqual({ msw: expect.any(String) });
    expect(installed.peerDependenciesMeta).toEqual({ msw: { optional: true } });
  });

  it("is versioned as the contract's info.version", async () => {
    const manifest = JSON.parse(await readFile(CLIENT_MANIFEST, 'utf8'));
    expect(manifest.version).toBe(loadContract().document.info.version);
  });

  it('type-checks the script with tsc --strict, where a wrong field, status or path does not compile', async () => {
    // Each `@ts-expect-error` that has no error under it fails the check, so passing shows all five are errors.
    await expect(run(process.execPath, [TSC, '-p', consumer])).resolves.toBeDefined();
  });

  it('runs the compiled script with plain Node against the real server', async () => {
    const { stdout } = await run(process.execPath, [path.join(consumer, 'out', 'app.js')], { cwd: consumer });
    const result = JSON.parse(stdout);
    expect(result.created).toEqual({ id: expect.any(Number), name: 'Rex', categoryId: 3, status: 'pending' });
    expect(result.fetched).toEqual(result.created);
    expect(result.pendingIds).toContain(result.created.id);
    expect(result.refusal).toMatchObject({ code: 'validation_failed', status: 400 });
    expect(result.notices).toEqual(['GET /pets/{petId}']);
  });
});
