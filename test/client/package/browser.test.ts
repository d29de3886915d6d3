// The package's MSW handlers in a real browser: a page bundled with esbuild from the package as
// installed from its tarball starts MSW's service worker with them, lists the pets with the package's client, then
// switches to the `empty` and `server-error` scenarios; headless Chromium shows each state.
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import * as esbuild from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { REPOSITORY_ROOT } from '../../../support/repository-copy.ts';
import { chromiumInstalled, connectChromium } from '../../support/chromium.ts';
import { examplePets } from '../../support/mock.ts';

const withChromium = chromiumInstalled('test/client/package/browser.test.ts');
/** Where the screenshots go: dist/ is build output, never committed. */
const SCREENSHOTS = path.join(REPOSITORY_ROOT, 'dist', 'screenshots');

/**
 * The frontend, as a team writes it against the package: the list is fetched with the client,
 * and `window.showScenario(name)` puts that scenario's handlers in front and fetches again.
 */
const PAGE_SOURCE = `
import { createAnimalStoreClient } from '@animal-store/client';
import { createMockHandlers } from '@animal-store/client/msw';
import { setupWorker } from 'msw/browser';

const worker = setupWorker(...createMockHandlers());
await worker.start({ quiet: true, onUnhandledRequest: 'bypass' });

// A 503 is retried after its Retry-After by default; the page shows it at once.
const api = createAnimalStoreClient({ baseUrl: location.origin + '/v1', apiKey: 'any_key', retry: { attempts: 1 } });
const status = document.getElementById('status');
const list = document.getElementById('pets');

async function showPets() {
  status.textContent = 'Loading…';
  list.replaceChildren();
  const { data, error } = await api.GET('/pets');
  if (error) status.textContent = 'Could not load the animals: ' + error.status + ' ' + error.code;
  else if (data.length === 0) status.textContent = 'No animals yet';
  else {
    status.textContent = data.length + ' animals';
    list.replaceChildren(...data.map((pet) => Object.assign(document.createElement('li'), { textContent: pet.name })));
  }
}

window.showScenario = async (scenario) => {
  worker.resetHandlers(...createMockHandlers({ scenario }));
  await showPets();
};
await showPets();
`;

const PAGE_HTML = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Animals</title></head>
<body>
<h1>Animals</h1>
<p id="status">Starting the mock…</p>
<ul id="pets"></ul>
<script type="module" src="/app.js"></script>
</body>
</html>`;

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
};

describe.skipIf(!withChromium)(
  'the MSW handlers of @animal-store/client in headless Chromium',
  { timeout: 60_000 },
  () => {
    /** A folder of the shared consumer project, whose node_modules holds the package as installed. */
    let root: string;
    let site: Server;
    let siteUrl: string;
    let browser: Browser;
    let page: Page;
    const pageErrors: string[] = [];

    beforeAll(async () => {
      root = await mkdtemp(path.join(inject('sharedBuilds').consumer, 'browser-'));
      const www = path.join(root, 'www');
      await mkdir(www);
      await writeFile(path.join(root, 'page.js'), PAGE_SOURCE);
      await writeFile(path.join(www, 'index.html'), PAGE_HTML);
      await copyFile(
        path.join(REPOSITORY_ROOT, 'node_modules', 'msw', 'lib', 'mockServiceWorker.js'),
        path.join(www, 'mockServiceWorker.js'),
      );
      await esbuild.build({
        entryPoints: [path.join(root, 'page.js')],
        outfile: path.join(www, 'app.js'),
        bundle: true,
        format: 'esm',
        platform: 'browser',
        target: 'es2022',
        logLevel: 'warning',
      });
      const files = new Map<string, string>([
        ['/', 'index.html'],
        ['/app.js', 'app.js'],
        ['/mockServiceWorker.js', 'mockServiceWorker.js'],
      ]);
      site = createServer(async (request, response) => {
        const file = files.get(new URL(request.url ?? '/', 'http://page').pathname);
        if (!file) return void response.writeHead(404).end();
        response
          .writeHead(200, { 'Content-Type': CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream' })
          .end(await readFile(path.join(www, file)));
      });
      await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
      // 127.0.0.1 is a secure context, where a page may register a service worker.
      siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
      await mkdir(SCREENSHOTS, { recursive: true });
      browser = await connectChromium();
      page = await browser.newPage();
      page.on('pageerror', (error) => pageErrors.push(error.message));
    }, 60_000);

    afterAll(async () => {
      await browser?.close();
      await new Promise((resolve) => (site ? site.close(resolve) : resolve(undefined)));
      if (root) await rm(root, { recursive: true, force: true });
      expect(pageErrors, 'uncaught errors on the page').toEqual([]);
    });

    const statusShown = () => page.locator('#status').innerText();
    /** The page's own switch, called as a developer would from its console. */
    const showScenario = (name: string) => page.evaluate(`showScenario(${JSON.stringify(name)})`);
    const settled = async () => {
      await expect.poll(statusShown, { timeout: 60_000 }).not.toMatch(/Starting|Loading/);
      return statusShown();
    };

    it("lists the contract's example pets, answered by the handlers in the page's service worker", async () => {
      await page.goto(siteUrl, { waitUntil: 'load' });
      const pets = examplePets();
      expect(await settled()).toBe(`${pets.length} animals`);
      expect(await page.locator('#pets li').allInnerTexts()).toEqual(pets.map((pet) => pet.name));
      // The answers came from the worker, not from this server, which has no /v1 at all.
      expect(await page.evaluate('navigator.serviceWorker.controller?.scriptURL')).toMatch(/mockServiceWorker\.js$/);
      await page.screenshot({ path: path.join(SCREENSHOTS, 'msw-default.png') });
    });

    it('shows the empty state in the empty scenario', async () => {
      await showScenario('empty');
      expect(await settled()).toBe('No animals yet');
      expect(await page.locator('#pets li').count()).toBe(0);
      await page.screenshot({ path: path.join(SCREENSHOTS, 'msw-empty.png') });
    });

    it('shows the failure in the server-error scenario', async () => {
      await showScenario('server-error');
      expect(await settled()).toBe('Could not load the animals: 503 service_unavailable');
      await page.screenshot({ path: path.join(SCREENSHOTS, 'msw-server-error.png') });
    });
  },
);
