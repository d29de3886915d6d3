// The docs step of `npm start` (build dist/docs/ when missing or stale, never block the server)
// and `npm run docs:serve`, on a throw-away copy of the repository.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { appendFile, mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DocsEnsured, ensureDocs } from '../../../scripts/docs/ensure.ts';
import { type DocsLocations, docsLocations, docsStatus } from '../../../scripts/docs/status.ts';
import { createWorkspace, run, type Workspace } from '../../support/workspace.ts';

describe('ensureDocs, the docs step of npm start', { timeout: 120_000 }, () => {
  let workspace: Workspace;
  let docs: DocsLocations;
  let freshClone: DocsEnsured;
  let freshCloneOutput: string[];
  beforeAll(async () => {
    workspace = await createWorkspace();
    docs = docsLocations(workspace.locations);
    freshCloneOutput = [];
    freshClone = await ensureDocs(workspace.locations, (line) => freshCloneOutput.push(line));
  }, 120_000);
  afterAll(async () => {
    await workspace?.dispose();
  });

  it('builds dist/docs/ on a fresh clone, where no page exists yet', async () => {
    expect(freshClone).toEqual({ outcome: 'built' });
    expect(freshCloneOutput[0]).toContain('dist/docs/index.html does not exist');
    expect(await workspace.read('dist/docs/index.html')).toContain('<title>Animal Store API</title>');
    expect(await docsStatus(workspace.locations)).toEqual({ state: 'current' });
  });

  it('touches nothing and prints nothing when the page is current', async () => {
    const before = (await stat(docs.page)).mtimeMs;
    const output: string[] = [];

    const ensured = await ensureDocs(workspace.locations, (line) => output.push(line));

    expect(ensured).toEqual({ outcome: 'current' });
    expect(output).toEqual([]);
    expect((await stat(docs.page)).mtimeMs).toBe(before);
  });

  it('rebuilds a page older than generated/openapi.json', async () => {
    const anHourAgo = new Date(Date.now() - 3_600_000);
    await utimes(docs.page, anHourAgo, anHourAgo);
    expect(await docsStatus(workspace.locations)).toMatchObject({ state: 'stale' });

    const ensured = await ensureDocs(workspace.locations, () => {});

    expect(ensured).toEqual({ outcome: 'built' });
    expect((await stat(docs.page)).mtimeMs).toBeGreaterThan(anHourAgo.getTime());
    expect(await docsStatus(workspace.locations)).toEqual({ state: 'current' });
  });

  it('rebuilds when the download copy differs from generated/ (docs built from another contract)', async () => {
    await writeFile(workspace.path('dist/docs/openapi.json'), '{}');
    expect(await docsStatus(workspace.locations)).toMatchObject({
      state: 'stale',
      reason: expect.stringContaining('openapi.json'),
    });

    const ensured = await ensureDocs(workspace.locations, () => {});

    expect(ensured).toEqual({ outcome: 'built' });
    expect(await workspace.read('dist/docs/openapi.json')).toBe(await workspace.read('generated/openapi.json'));
  });

  it('stopped with the server while it builds, leaves no work folder behind', async () => {
    const anHourAgo = new Date(Date.now() - 3_600_000);
    await utimes(docs.page, anHourAgo, anHourAgo);
    // The step's own temporary folder, so that only its work folders are counted.
    const tmp = await mkdtemp(path.join(os.tmpdir(), 'animal-store-docs-step-'));
    const workFolders = async () => (await readdir(tmp)).filter((name) => name.startsWith('animal-store-docs-'));
    const step = spawn(process.execPath, ['--import', 'tsx', 'scripts/docs/start.ts'], {
      cwd: workspace.root,
      env: { ...process.env, TMPDIR: tmp },
      stdio: 'ignore',
    });
    try {
      await expect.poll(workFolders).toHaveLength(1);
      const exited = once(step, 'exit');
      step.kill('SIGTERM');

      expect(await exited).toEqual([143, null]);
      expect(await workFolders()).toEqual([]);
    } finally {
      step.kill('SIGKILL');
      await rm(tmp, { recursive: true, force: true });
    }
  });

  describe('when the docs cannot be built', () => {
    let original: string;
    beforeAll(async () => {
      original = await workspace.read('generated/openapi.json');
      await rm(docs.dir, { recursive: true, force: true });
      // generated/ no longer matches openapi/: the build refuses to render it.
      await appendFile(workspace.path('generated/openapi.json'), ' ');
    });
    afterAll(async () => {
      await workspace.write('generated/openapi.json', original);
    });

    it('reports the failure instead of throwing', async () => {
      const ensured = await ensureDocs(workspace.locations, () => {});

      expect(ensured).toMatchObject({
        outcome: 'failed',
        problem: expect.stringContaining('generated/openapi.json (stale)'),
      });
    });

    it('lets npm start go on to the server, warning that /docs answers 404 until npm run docs succeeds', async () => {
      const result = await run(process.execPath, ['--import', 'tsx', 'scripts/docs/start.ts'], workspace.root);

      expect(result.code).toBe(0);
      expect(result.stderr).toContain('/docs answers 404 until `npm run docs` succeeds');
    });
  });
});

describe('npm run docs:serve', { timeout: 120_000 }, () => {
  let workspace: Workspace;
  let server: ChildProcess;
  let output = '';
  let baseUrl: string;
  beforeAll(async () => {
    workspace = await createWorkspace();
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/docs/serve.ts'], {
      cwd: workspace.root,
      env: { ...process.env, DOCS_PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    server = child;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    baseUrl = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', () => {
        const url = /Docs at (http:\/\/\S+\/)/.exec(output)?.[1];
        if (url) resolve(url);
      });
      server.once('exit', (code) => reject(new Error(`docs:serve exited with ${code}:\n${output}`)));
    });
  }, 120_000);
  afterAll(async () => {
    if (server && server.exitCode === null) {
      server.kill('SIGTERM');
      await once(server, 'exit');
    }
    await workspace?.dispose();
  });

  it('builds the missing docs first and prints a local URL', () => {
    expect(output).toContain('dist/docs/index.html does not exist; building dist/docs/');
    expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
  });

  it('serves the page at / and the bundles next to it', async () => {
    const page = await fetch(baseUrl);
    expect(page.status).toBe(200);
    expect(page.headers.get('Content-Type')).toMatch(/^text\/html/);
    expect(await page.text()).toBe(await workspace.read('dist/docs/index.html'));

    for (const name of ['openapi.json', 'openapi.yaml']) {
      const bundle = await fetch(new URL(name, baseUrl));
      expect(bundle.status, name).toBe(200);
      expect(await bundle.text()).toBe(await readFile(workspace.path(`generated/${name}`), 'utf8'));
    }
  });
});
