// /docs/ while `npm start` builds the docs beside the running API: a 503 with Retry-After, not a
// 404 telling the reader to build them, until the page is written.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Hono } from 'hono';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DOCS_BUILDING_MARKER } from '../../../node/http/compression.ts';
import { DEFAULT_DOCS_FILES, type DocsFiles, docsRoutes } from '../../../server/docs/routes.ts';

describe('docsRoutes while the docs are being built', () => {
  let files: DocsFiles;
  let app: Hono;
  beforeEach(async () => {
    const dir = path.join(await mkdtemp(path.join(os.tmpdir(), 'animal-store-docs-building-')), 'docs');
    await mkdir(dir);
    files = { ...DEFAULT_DOCS_FILES, dir };
    app = new Hono().route('/', docsRoutes(files));
  });
  afterEach(() => rm(path.dirname(files.dir), { recursive: true, force: true }));

  const mark = (pid: number) => writeFile(path.join(files.dir, DOCS_BUILDING_MARKER), String(pid));

  it('answers 503 service_unavailable with Retry-After while the building process runs', async () => {
    await mark(process.pid);
    const answer = await app.request('/docs/');
    expect(answer.status).toBe(503);
    expect(answer.headers.get('Retry-After')).toMatch(/^[1-9]\d*$/);
    expect(await answer.json()).toMatchObject({
      code: 'service_unavailable',
      message: expect.stringMatching(/being built/),
    });
  });

  it('answers 404 saying how to build them once the building process is gone without a page', async () => {
    const gone = spawn(process.execPath, ['-e', '']);
    await once(gone, 'exit');
    await mark(gone.pid as number);
    const answer = await app.request('/docs/');
    expect(answer.status).toBe(404);
    expect(await answer.json()).toMatchObject({ message: expect.stringMatching(/npm run docs/) });
  });

  it('serves the page as soon as it is written, the mark still there', async () => {
    await mark(process.pid);
    await writeFile(path.join(files.dir, 'index.html'), '<!doctype html><title>Docs</title>');
    expect((await app.request('/docs/')).status).toBe(200);
    expect((await app.request(`/docs/${DOCS_BUILDING_MARKER}`)).status).toBe(404);
  });
});
