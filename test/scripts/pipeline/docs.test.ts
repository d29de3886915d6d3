import { appendFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findRemoteResources, makeSelfContained } from '../../../scripts/docs/self-contained.ts';
import { type CommandResult, createWorkspace, type Workspace } from '../../support/workspace.ts';

describe('npm run docs', { timeout: 90_000 }, () => {
  let workspace: Workspace;
  let result: CommandResult;
  let page: string;
  // A hook gets vitest's 10 s, not the describe's timeout; regenerating and rendering take longer on a busy machine.
  beforeAll(async () => {
    workspace = await createWorkspace();
    result = await workspace.npmRun('docs');
    page = await workspace.read('dist/docs/index.html');
  }, 90_000);
  afterAll(async () => {
    await workspace.dispose();
  });

  it('renders the contract into dist/docs/index.html', () => {
    expect(result.code, result.stderr).toBe(0);
    expect(page).toContain('<title>Animal Store API</title>');
    expect(page).toContain('List animals');
  });

  it('references no script, stylesheet, font or image on another host', () => {
    const remoteSources = [
      /<(?:script|link|img|iframe|source)\b[^>]*\s(?:src|href)\s*=\s*["']?(?:https?:)?\/\//i,
      /url\(\s*["']?(?:https?:)?\/\//i,
      /@import\s+(?:url\()?\s*["']?(?:https?:)?\/\//i,
      /\/\/(?:fonts\.googleapis\.com|fonts\.gstatic\.com|cdn\.redoc\.ly|cdn\.redocly\.com|unpkg\.com|cdn\.jsdelivr\.net)/i,
      /["'`]https?:\/\/[^"'`\s]+\.(?:js|css|svg|png|jpe?g|gif|woff2?|ttf)["'`]/i,
    ];
    for (const pattern of remoteSources) expect(page).not.toMatch(pattern);
  });

  it('turns Redoc telemetry off', () => {
    expect(page).toMatch(/__redoc_options\s*=\s*\{[^;]*"disableTelemetry"\s*:\s*true/);
  });

  it('puts the bundled contract next to the page for its download links', async () => {
    for (const name of ['openapi.yaml', 'openapi.json']) {
      expect(await workspace.read(`dist/docs/${name}`)).toBe(await workspace.read(`generated/${name}`));
      expect(page).toContain(`href="${name}"`);
    }
  });

  it('refuses to render from a generated/ that no longer matches openapi/', async () => {
    await appendFile(workspace.path('generated/openapi.json'), ' ');

    const stale = await workspace.npmRun('docs');

    expect(stale.code).toBe(1);
    expect(stale.stderr).toContain('generated/openapi.json (stale)');
  });
});

describe('findRemoteResources', () => {
  it.each([
    ['a script element', '<script src="https://cdn.example.com/app.js"></script>'],
    ['a stylesheet link', '<link rel="stylesheet" href="//cdn.example.com/site.css">'],
    ['a web font', '<link href="https://fonts.googleapis.com/css?family=Roboto" rel="stylesheet">'],
    ['a CSS background', '<style>body { background: url(https://example.com/bg.png) }</style>'],
    ['a CSS import', '<style>@import "https://example.com/theme.css";</style>'],
    ['an image address inside script', 'jsx(`img`, { src: `https://cdn.redoc.ly/redoc/logo-mini.svg` })'],
  ])('flags %s', (_kind, snippet) => {
    const html = `${snippet}<script>const __redoc_options = {"disableTelemetry":true};</script>`;

    expect(findRemoteResources(html)).not.toEqual([]);
  });

  it.each([
    ['a link a reader may follow', '<a href="https://redocly.com/redoc/">API docs by Redocly</a>'],
    ['an SVG namespace', '<svg xmlns="http://www.w3.org/2000/svg"></svg>'],
    ['a server address of the contract', '"url": "https://api.animalstore.dev/v1"'],
  ])('does not flag %s', (_kind, snippet) => {
    const html = `${snippet}<script>const __redoc_options = {"disableTelemetry":true};</script>`;

    expect(findRemoteResources(html)).toEqual([]);
  });

  it('flags a page whose Redoc telemetry is on', () => {
    expect(findRemoteResources('<script>const __redoc_options = {};</script>')).toEqual([
      expect.stringContaining('disableTelemetry'),
    ]);
  });

  it("replaces the remote addresses of Redoc's own bundle with local ones", () => {
    const redocAddresses = [
      'src:e?`https://cdn.redoc.ly/redoc/logo-mini-full.svg`:`https://cdn.redoc.ly/redoc/logo-mini.svg`',
      '{"font-awesome":`https://cdn.redocly.com/icons/fa/7.0.0`,code:`https://cdn.redocly.com/icons/code/5.24.0`}',
    ].join(';');
    const html = `<script>${redocAddresses}; const __redoc_options = {"disableTelemetry":true};</script>`;

    expect(findRemoteResources(html)).not.toEqual([]);
    expect(findRemoteResources(makeSelfContained(html))).toEqual([]);
  });
});
