import { appendFile, rm } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createWorkspace, type Workspace } from '../../support/workspace.ts';

describe('npm run generate -- --check', { timeout: 60_000 }, () => {
  let workspace: Workspace;
  beforeEach(async () => {
    workspace = await createWorkspace();
  });
  afterEach(async () => {
    await workspace.dispose();
  });

  it('exits 0 with a single line when generated/ matches the contract', async () => {
    const result = await workspace.npmRun('generate', '--check');

    expect(result.code).toBe(0);
    expect(result.stdout.trim().split('\n')).toEqual([expect.stringContaining('generated/ is up to date')]);
  });

  const drifts: Array<{ problem: string; file: string; cause: (workspace: Workspace) => Promise<void> }> = [
    {
      problem: 'stale',
      file: 'generated/openapi.ts',
      cause: (w) => appendFile(w.path('generated/openapi.ts'), '// a hand edit\n'),
    },
    {
      problem: 'missing',
      file: 'generated/openapi.json',
      cause: (w) => rm(w.path('generated/openapi.json')),
    },
    {
      problem: 'unexpected',
      file: 'generated/notes.txt',
      cause: (w) => w.write('generated/notes.txt', 'not produced by the pipeline\n'),
    },
  ];

  it.each(drifts)('exits 1 naming $file as $problem, and writes nothing', async ({ problem, file, cause }) => {
    await cause(workspace);
    const before = await workspace.snapshotGenerated();

    const result = await workspace.generate('--check');

    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`${file} is ${problem}`);
    expect(await workspace.snapshotGenerated()).toEqual(before);
  });

  it('names every out-of-date file at once, not only the first', async () => {
    for (const { cause } of drifts) await cause(workspace);

    const result = await workspace.generate('--check');

    expect(result.code).toBe(1);
    for (const { file, problem } of drifts) expect(result.stderr).toContain(`${file} is ${problem}`);
  });

  it('fails after a contract edit that was not regenerated, naming each output it changes', async () => {
    await workspace.editYaml('openapi/components/schemas/Pet.yaml', (schema) => {
      schema.description = 'An animal of the store, described differently.';
    });

    const result = await workspace.generate('--check');

    expect(result.code).toBe(1);
    for (const name of ['openapi.json', 'openapi.ts', 'openapi.yaml']) {
      expect(result.stderr).toContain(`generated/${name} is stale`);
    }
    expect(result.stderr).not.toContain('generated/README.md');
  });
});
