// The docs' "Try it" console in headless Chromium: the built dist/docs/ served as a static host
// would serve it, the browser offline once the page has loaded, requests sent from two operation
// pages and answered by the page's own mock (the client package's MSW handlers behind the docs'
// service worker); then the docs as the server serves them at /docs/, sending to that server with
// a reader's key, which stays in the tab's session only.
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../../../contract/bundled.ts';
import { ensureDocs } from '../../../scripts/docs/ensure.ts';
import { docsLocations } from '../../../scripts/docs/status.ts';
import { contractLocations } from '../../../scripts/pipeline/locations.ts';
import { REPOSITORY_ROOT } from '../../../support/repository-copy.ts';
import { chromiumInstalled, connectChromium } from '../../support/chromium.ts';
import { jsonContent, namedExamples, requestBody } from '../../support/contract-document.ts';
import { defined } from '../../support/defined.ts';
import { type ListeningApp, startListeningApp } from '../../support/listening-app.ts';
import { examplePets, RATE_LIMIT_HEADERS } from '../../support/mock.ts';

const withChromium = chromiumInstalled('test/scripts/docs/console.test.ts');
const locations = contractLocations(REPOSITORY_ROOT);
const docs = docsLocations(locations);
const contract = loadContract();
/** Where the screenshots go: dist/docs/ holds only what is published. */
const SCREENSHOTS = path.join(REPOSITORY_ROOT, 'dist', 'screenshots', 'docs');

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.yaml': 'text/yaml',
};

/** dist/docs/ as a static host serves it: its files, and a 404 for anything else. */
function staticHost(dir: string): Server {
  return createServer(async (request, response) => {
    const pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://host').pathname);
    const file = path.join(dir, pathname.endsWith('/') ? `${pathname}index.html` : pathname);
    const content = file.startsWith(dir) ? await readFile(file).catch(() => undefined) : undefined;
    if (content === undefined) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream' });
    response.end(content);
  });
}

/** The console of `operationId`'s page, opened as a reader opens it: its tag, then its entry in the navigation. */
async function openConsole(page: Page, operationId: string): Promise<Locator> {
  const operation = contract.operation(operationId as Parameters<typeof contract.operation>[0]);
  const tag = defined((operation.definition.tags as string[] | undefined)?.[0], `a tag of ${operationId}`);
  const summary = String(operation.definition.summary);
  const entry = page.getByRole('link', { name: new RegExp(`^${summary}`) }).filter({ visible: true });
  if ((await entry.count()) === 0)
    await page.getByRole('link', { name: tag, exact: true }).filter({ visible: true }).click();
  await entry.click();
  const form = page.getByRole('form', { name: `Try ${operation.method} ${operation.servedPath}`, exact: true });
  await form.waitFor();
  return form;
}

/** The answer the console shows: status line, headers by lower-case name, body parsed. */
async function answerOf(form: Locator): Promise<{ status: string; headers: Map<string, string>; body: unknown }> {
  const answer = form.getByRole('status').or(form.locator('output'));
  await answer.locator('.docs-console-body').waitFor();
  const names = await answer.locator('dt').allInnerTexts();
  const values = await answer.locator('dd').allInnerTexts();
  return {
    status: await answer.locator('.docs-console-status').innerText(),
    headers: new Map(names.map((name, index) => [name.toLowerCase(), values[index] ?? ''])),
    body: JSON.parse(await answer.locator('.docs-console-body').innerText()),
  };
}

describe.skipIf(!withChromium)(
  'Try it console of the docs, offline, against the page mock',
  { timeout: 90_000 },
  () => {
    let site: Server;
    let origin: string;
    let browser: Browser;
    let context: BrowserContext;
    let page: Page;
    /** Requests that reached the static host: the page and its worker, nothing the console sent. */
    const served: string[] = [];

    beforeAll(async () => {
      const ensured = await ensureDocs(locations);
      if (ensured.outcome === 'failed') throw new Error(ensured.problem);
      site = staticHost(docs.dir);
      site.on('request', (request) => served.push(`${request.method} ${request.url}`));
      await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
      origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
      browser = await connectChromium();
      context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      page = await context.newPage();
      await page.goto(`${origin}/index.html`);
      // The worker controls the page once MSW has started it; from then on the network may go.
      await page.waitForFunction('navigator.serviceWorker.controller !== null');
      await context.setOffline(true);
    }, 180_000);

    afterAll(async () => {
      await browser?.close();
      await new Promise((resolve) => site?.close(resolve));
    });

    it("sends GET /pets?limit=2 from listPets' page and shows the mock's answer with its headers", async () => {
      const form = await openConsole(page, 'listPets');
      await form.getByLabel('limit (query)').fill('2');
      await form.getByRole('button', { name: /^Send GET / }).click();

      const answer = await answerOf(form);
      expect(answer.status).toMatch(/^200\b/);
      expect(answer.body).toEqual(examplePets().slice(0, 2));
      for (const name of [...RATE_LIMIT_HEADERS, 'Link', 'Content-Type'])
        expect(answer.headers.get(name.toLowerCase()), name).toBeTruthy();
      expect(answer.headers.get('link')).toContain('limit=2');
      expect(served.filter((request) => request.includes('/v1/'))).toEqual([]);
    });

    it("sends POST /pets from createPet's page with the body's example and shows the created animal", async () => {
      const [, example] = defined(
        namedExamples(jsonContent(defined(requestBody('createPet'), 'a body')))[0],
        'example',
      );
      const form = await openConsole(page, 'createPet');
      expect(JSON.parse(await form.getByLabel('Body').inputValue())).toEqual(example.value);
      await form.getByRole('button', { name: /^Send POST / }).click();

      const answer = await answerOf(form);
      expect(answer.status).toMatch(/^201\b/);
      expect(answer.body).toMatchObject(example.value as object);
      expect(answer.body).toHaveProperty('id');
      expect(answer.headers.get('location')).toContain(`/pets/${(answer.body as { id: number }).id}`);
      for (const name of RATE_LIMIT_HEADERS) expect(answer.headers.get(name.toLowerCase()), name).toBeTruthy();
    });

    it('answers with the scenario the reader chooses', async () => {
      const form = await openConsole(page, 'listPets');
      await form.getByLabel('Scenario').selectOption('empty');
      await form.getByRole('button', { name: /^Send GET / }).click();

      const answer = await answerOf(form);
      expect(answer.status).toMatch(/^200\b/);
      expect(answer.body).toEqual([]);
      await form.getByLabel('Scenario').selectOption('default');
    });
  },
);

describe.skipIf(!withChromium)('Try it console of the docs, against a server with a key', { timeout: 90_000 }, () => {
  let server: ListeningApp;
  let browser: Browser;
  let context: BrowserContext;
  /** Every address the pages requested. */
  const requested: string[] = [];

  beforeAll(async () => {
    const ensured = await ensureDocs(locations);
    if (ensured.outcome === 'failed') throw new Error(ensured.problem);
    server = await startListeningApp();
    browser = await connectChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    // Only the server: anything else is cut.
    await context.route('**/*', (route) =>
      route.request().url().startsWith(`${server.origin}/`) ? route.continue() : route.abort('blockedbyclient'),
    );
    context.on('request', (request) => requested.push(request.url()));
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("answers from the page's mock behind its service worker on the page the server serves at /docs/, as npm start serves it", async () => {
    const page = await context.newPage();
    const warnings: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'warning' || message.type() === 'error') warnings.push(message.text());
    });
    await page.goto(`${server.origin}/docs/`);
    const form = await openConsole(page, 'listPets');
    await form.getByLabel('limit (query)').fill('2');
    await form.getByRole('button', { name: /^Send GET / }).click();

    const answer = await answerOf(form);
    expect(answer.status).toMatch(/^200\b/);
    expect(answer.body).toEqual(examplePets().slice(0, 2));
    // Registered and in control: the answer came through the worker, not the page's fallback.
    expect(await page.evaluate('navigator.serviceWorker.controller?.scriptURL')).toBe(
      `${server.origin}/docs/mockServiceWorker.js`,
    );
    expect(warnings.filter((text) => /service ?worker/i.test(text))).toEqual([]);
    await page.close();
  });

  it('sends GET /pets to the server the reader names, with their key, and forgets the key when the tab closes', async () => {
    const page = await context.newPage();
    await page.goto(`${server.origin}/docs/`);
    const form = await openConsole(page, 'listPets');
    await form.getByLabel('Send to').selectOption('server');
    await form.getByLabel('Server').fill(`${server.origin}${contract.basePath}`);
    await form.getByLabel('API key').fill(server.apiKey);
    await form.getByLabel('limit (query)').fill('2');
    await form.getByRole('button', { name: /^Send GET / }).click();

    const answer = await answerOf(form);
    expect(answer.status).toMatch(/^200\b/);
    expect(Array.isArray(answer.body)).toBe(true);
    for (const name of RATE_LIMIT_HEADERS) expect(answer.headers.get(name.toLowerCase()), name).toBeTruthy();
    const logged = server.logged().filter((line) => String(line.path ?? line.url ?? '').includes('/pets'));
    expect(logged.length, 'requests the server logged for /pets').toBeGreaterThan(0);

    // Kept for the tab's session: a reload keeps it, and it is in no URL and no lasting storage.
    await page.reload();
    const reloaded = await openConsole(page, 'listPets');
    expect(await reloaded.getByLabel('API key').inputValue()).toBe(server.apiKey);
    expect(requested.filter((url) => url.includes(server.apiKey))).toEqual([]);
    expect(await page.evaluate('JSON.stringify(localStorage)')).not.toContain(server.apiKey);
    expect(JSON.stringify(await context.cookies())).not.toContain(server.apiKey);
    await page.close();

    const next = await context.newPage();
    await next.goto(`${server.origin}/docs/`);
    const fresh = await openConsole(next, 'listPets');
    expect(await next.evaluate('JSON.stringify(sessionStorage)')).not.toContain(server.apiKey);
    await fresh.getByLabel('Send to').selectOption('server');
    expect(await fresh.getByLabel('API key').inputValue()).toBe('');
    await next.close();
  });
});

type Box = { x: number; y: number; width: number; height: number };
type Control = Box & { name: string };

/**
 * The visible controls of the page (links, buttons, fields) and its headings (Redoc's panel headers
 * among them) outside `within`, and the box of `within`.
 */
async function controlsBeside(page: Page, within: string): Promise<{ box: Box; others: Control[] }> {
  return page.evaluate(`(() => {
    const container = document.querySelector(${JSON.stringify(within)});
    const rect = (element) => { const r = element.getBoundingClientRect(); return { x: r.x, y: r.y, width: r.width, height: r.height }; };
    const others = [...document.querySelectorAll('a, button, input, select, textarea, [role="button"], [role="link"], [role="tab"], h1, h2, h3, [data-component-name="Panel/PanelHeader"]')]
      .filter((element) => !container.contains(element) && element.checkVisibility() && element.getBoundingClientRect().width > 0)
      .map((element) => ({ ...rect(element), name: (element.getAttribute('aria-label') || element.textContent || element.tagName).trim().slice(0, 40) }));
    return { box: rect(container), others };
  })()`);
}

function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

describe.skipIf(!withChromium)('layout of the docs page, with the console', { timeout: 90_000 }, () => {
  let site: Server;
  let origin: string;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    const ensured = await ensureDocs(locations);
    if (ensured.outcome === 'failed') throw new Error(ensured.problem);
    site = staticHost(docs.dir);
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    browser = await connectChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.route('**/*', (route) =>
      route.request().url().startsWith(`${origin}/`) ? route.continue() : route.abort('blockedbyclient'),
    );
    page = await context.newPage();
    await page.goto(`${origin}/index.html`);
    await page.waitForFunction('navigator.serviceWorker.controller !== null');
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => site?.close(resolve));
  });

  it('places the version switcher where it overlaps no other control or heading, on the overview and on an operation (screenshots saved)', async () => {
    await page
      .getByRole('heading', { name: new RegExp(`^${contract.document.info.title}`) })
      .first()
      .waitFor();
    const overview = await controlsBeside(page, '#docs-versions');
    expect(overview.others.length, 'controls on the page').toBeGreaterThan(5);
    expect(overview.others.filter((control) => overlaps(control, overview.box))).toEqual([]);
    // Below the bar, the navigation's column still fits the window: its last controls are not pushed out.
    const navigation = (await controlsBeside(page, '#redoc main')).others;
    expect(navigation.length, 'controls of the navigation').toBeGreaterThan(0);
    expect(navigation.filter((control) => control.y + control.height > 900)).toEqual([]);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'main-page.png') });

    const form = await openConsole(page, 'listPets');
    await page.evaluate('window.scrollTo(0, 0)');
    const operation = await controlsBeside(page, '#docs-versions');
    expect(operation.others.filter((control) => overlaps(control, operation.box))).toEqual([]);
    await form.scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(SCREENSHOTS, 'operation-with-console.png') });
  });

  it("places the console where it overlaps none of the page's controls, and its answer below it (screenshot saved)", async () => {
    const form = await openConsole(page, 'createPet');
    await form.scrollIntoViewIfNeeded();
    const selector = 'form.docs-console[data-operation="createPet"]';
    const before = await controlsBeside(page, selector);
    expect(before.box.width).toBeGreaterThan(200);
    expect(before.others.filter((control) => overlaps(control, before.box))).toEqual([]);

    await form.getByRole('button', { name: /^Send POST / }).click();
    await answerOf(form);
    const after = await controlsBeside(page, selector);
    expect(after.others.filter((control) => overlaps(control, after.box))).toEqual([]);
    const answer = defined(await form.locator('output').boundingBox(), 'the box of the answer');
    const button = defined(await form.getByRole('button', { name: /^Send / }).boundingBox(), 'the box of the button');
    expect(answer.y).toBeGreaterThanOrEqual(button.y + button.height);
    await form.locator('output').scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(SCREENSHOTS, 'console-answer.png') });
  });
});
