// The static mock called by a frontend in Debian's headless Chromium: a page served from another
// origin (another port of 127.0.0.1, as a dev server would be) fetches the mock across origins
// and shows what it got, picking a scenario by query parameter or by cookie.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type RunningMock, startMock } from '../../mock/node/server.ts';
import { chromiumInstalled, connectChromium } from '../support/chromium.ts';
import { examplePets } from '../support/mock.ts';

const withChromium = chromiumInstalled('test/mock/browser.test.ts');

const EMPTY_STATE = 'No animals yet';

/**
 * The frontend: on load it fetches the mock's `/v1/pets` as `?mode=` says (`plain`, `query`:
 * `?__scenario=empty`, `cookie`: the `mock-scenario=empty` cookie sent with `credentials:
 * 'include'`, or `prefer`: `Prefer: example=PetsEmpty`) and shows the names, the empty state,
 * or the failure.
 */
function frontendPage(mockUrl: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Animals</title></head>
<body>
<h1>Animals</h1>
<p id="status">Loading…</p>
<ul id="pets"></ul>
<script type="module">
  const mockUrl = ${JSON.stringify(mockUrl)};
  const mode = new URLSearchParams(location.search).get('mode');
  const status = document.getElementById('status');
  try {
    let url = mockUrl + '/v1/pets';
    const init = { headers: { Authorization: 'Bearer any_key' } };
    if (mode === 'query') url += '?__scenario=empty';
    if (mode === 'prefer') init.headers.Prefer = 'example=PetsEmpty';
    if (mode === 'cookie') {
      document.cookie = 'mock-scenario=empty; path=/';
      init.credentials = 'include';
    }
    const response = await fetch(url, init);
    if (!response.ok) throw new Error('HTTP ' + response.status);
    const pets = await response.json();
    if (pets.length === 0) status.textContent = ${JSON.stringify(EMPTY_STATE)};
    else {
      status.textContent = pets.length + ' animals';
      for (const pet of pets) {
        const item = document.createElement('li');
        item.textContent = pet.name;
        document.getElementById('pets').append(item);
      }
    }
  } catch (error) {
    status.textContent = 'Could not load the animals: ' + error;
  }
</script>
</body>
</html>`;
}

describe.skipIf(!withChromium)(
  `Mock called from a frontend in headless Chromium${withChromium ? '' : ` (skipped: Chromium is not installed)`}`,
  { timeout: 60_000 },
  () => {
    let mock: RunningMock;
    let frontend: Server;
    let frontendUrl: string;
    let browser: Browser;
    let page: Page;
    const pageErrors: string[] = [];
    /** What the page's console said: Chromium explains a CORS refusal there. */
    const consoleLines: string[] = [];

    beforeAll(async () => {
      [mock, browser] = await Promise.all([startMock(), connectChromium()]);
      const html = frontendPage(mock.url);
      frontend = createServer((_request, response) => {
        response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(html);
      });
      await new Promise<void>((resolve) => frontend.listen(0, '127.0.0.1', resolve));
      frontendUrl = `http://127.0.0.1:${(frontend.address() as AddressInfo).port}`;
      // Another origin than the mock's: the same host, another port.
      expect(frontendUrl).not.toBe(mock.url);
    }, 60_000);

    afterAll(async () => {
      await browser?.close();
      await new Promise((resolve) => (frontend ? frontend.close(resolve) : resolve(undefined)));
      await mock?.close();
    });

    beforeEach(async () => {
      pageErrors.length = 0;
      consoleLines.length = 0;
      // A context of its own per test: no cookie carries over.
      page = await browser.newPage();
      page.on('pageerror', (error) => pageErrors.push(error.message));
      page.on('console', (message) => consoleLines.push(message.text()));
    });

    afterEach(async () => {
      await page.context().close();
      expect(pageErrors, 'uncaught errors on the page').toEqual([]);
    });

    const statusShown = () => page.locator('#status').innerText();
    /** Opens the page and waits until it shows what it got; returns that, with the console's lines. */
    const open = async (mode: string) => {
      await page.goto(`${frontendUrl}/?mode=${mode}`, { waitUntil: 'load' });
      await expect.poll(statusShown).not.toBe('Loading…');
      return `${await statusShown()}\n${consoleLines.join('\n')}`.trim();
    };

    it.each([
      ['asks for ?__scenario=empty', 'query'],
      ['sends Prefer: example=PetsEmpty (the mock must allow the header)', 'prefer'],
    ])('shows the empty state when the page %s', async (_how, mode) => {
      expect(await open(mode)).toBe(EMPTY_STATE);
    });

    it('shows the empty state when the page sets the mock-scenario=empty cookie and fetches with credentials (the mock must allow them)', async () => {
      // Cookies belong to a host, not a port: the one set on the page's 127.0.0.1 reaches the mock's.
      expect(await open('cookie')).toBe(EMPTY_STATE);
      const cookies = await page.context().cookies(mock.url);
      expect(cookies.map(({ name, value }) => `${name}=${value}`)).toEqual(['mock-scenario=empty']);
    });

    it("shows the names of the contract's examples without a scenario", async () => {
      const shown = await open('plain');

      const names = examplePets().map((pet) => pet.name);
      expect(shown).toBe(`${names.length} animals`);
      expect(await page.locator('#pets li').allInnerTexts()).toEqual(names);
    });
  },
);
