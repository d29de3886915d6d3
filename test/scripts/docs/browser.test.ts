// The built docs (dist/docs/index.html, the release pages and the changelog), opened from disk in Debian's headless Chromium with
// every network request blocked and recorded, as a reader on a plane would open it.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ParameterObject } from 'openapi-typescript';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { it as base, beforeAll, describe, expect, vi } from 'vitest';
import { operationObjects } from '../../../contract/document.ts';
import { type CodeSample, SAMPLE_LANGUAGES } from '../../../scripts/docs/code-samples.ts';
import { ensureDocs } from '../../../scripts/docs/ensure.ts';
import { forThePage } from '../../../scripts/docs/presentation.ts';
import { docsLocations } from '../../../scripts/docs/status.ts';
import { contractLocations } from '../../../scripts/pipeline/locations.ts';
import { REPOSITORY_ROOT } from '../../../support/repository-copy.ts';
import { chromiumInstalled, connectChromium } from '../../support/chromium.ts';
import {
  componentSchema,
  contract,
  jsonContent,
  keywords,
  namedExamples,
  operations,
  propertyOf,
  requestBody,
  resolve,
  responses,
} from '../../support/contract-document.ts';
import { CONTRACT_PLANS } from '../../support/contract-rate-limits.ts';
import { defined } from '../../support/defined.ts';
import { escapeRegExp } from '../../support/text.ts';

const withChromium = chromiumInstalled('test/scripts/docs/browser.test.ts');

const locations = contractLocations(REPOSITORY_ROOT);
const docs = docsLocations(locations);
const pageUrl = pathToFileURL(docs.page).href;
/** Where the screenshots go: dist/docs/ holds only what is published. */
const SCREENSHOTS = path.join(REPOSITORY_ROOT, 'dist', 'screenshots', 'docs');

const pageCopy = new Map(
  operationObjects(forThePage(structuredClone(contract))).map(({ definition }) => [
    String(definition.operationId),
    definition,
  ]),
);

const operationViews = operations.map(({ operationId, operation }) => {
  const [, successResponse] = defined(responses(operationId)[0], `a response of ${operationId}`);
  const body = requestBody(operationId);
  return {
    operationId,
    summary: defined(operation.summary, `the summary of ${operationId}`),
    tag: defined(operation.tags?.[0], `a tag of ${operationId}`),
    deprecated: operation.deprecated === true,
    stability: (operation as Record<string, unknown>)['x-stability'] as string | undefined,
    sunset: (operation as Record<string, unknown>)['x-sunset'] as string | undefined,
    parameters: (operation.parameters ?? []).map((parameter) => resolve<ParameterObject>(parameter).name),
    bodyFields: body ? Object.keys(keywords(jsonContent(body).schema).properties as object) : [],
    statuses: responses(operationId).map(([status]) => status),
    headers: Object.keys(successResponse.headers ?? {}),
    /** The strings of the success response's first example, as its JSON sample shows them. */
    /** The first line of its curl sample, as the page's copy of the contract carries it. */
    curl: defined(
      (pageCopy.get(operationId)?.['x-codeSamples'] as CodeSample[] | undefined)?.find(
        (sample) => sample.label === 'curl',
      ),
      `the curl sample of ${operationId}`,
    ).source.split('\n')[0] as string,
    // A 204 has no body, so no example to show.
    exampleStrings: successResponse.content
      ? stringLeaves(
          defined(namedExamples(jsonContent(successResponse))[0], `an example of ${operationId}'s success`)[1].value,
        ).map((text) => JSON.stringify(text))
      : [],
  };
});

/** Opens the draft's page; `close` closes it and fails on any request that left it or any uncaught error. */
async function openDocsPage(context: BrowserContext): Promise<{ page: Page; close(): Promise<void> }> {
  /** Every request that left the page: anything but the file itself and in-memory data: or blob: URLs. */
  const attempted: string[] = [];
  const pageErrors: string[] = [];
  const page = await context.newPage();
  page.on('request', (request) => {
    if (!isThePage(request.url()) && !/^(data|blob):/.test(request.url()))
      attempted.push(`${request.method()} ${request.url()}`);
  });
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('websocket', (socket) => attempted.push(`WebSocket ${socket.url()}`));
  await page.goto(pageUrl, { waitUntil: 'load' });
  await page
    .getByRole('heading', { name: `${contract.info.title} (${contract.info.version})` })
    .filter({ visible: true })
    .first()
    .waitFor();
  return {
    page,
    async close() {
      await page.close();
      expect(attempted, 'requests the page attempted').toEqual([]);
      expect(pageErrors, 'uncaught errors on the page').toEqual([]);
    },
  };
}

/** A fixture: the draft's page, open for as long as the fixture lives. */
async function aDocsPage({ context }: { context: BrowserContext }, use: (page: Page) => Promise<void>) {
  const opened = await openDocsPage(context);
  await use(opened.page);
  await opened.close();
}

/**
 * `page`: a page of the test's own, for a test that clicks, scrolls or navigates. `shownPage`: one
 * page the tests that only read it share, since rendering the page is most of a test's cost. The
 * tests run at once. The browser blocks every request but those of the pages.
 */
const it = base.extend<{
  context: BrowserContext;
  page: Page;
  shownPage: Page;
}>({
  context: [
    // biome-ignore lint/correctness/noEmptyPattern: vitest reads what a fixture depends on from this pattern.
    async ({}, use) => {
      const browser = await connectChromium();
      const context = await browser.newContext({ serviceWorkers: 'block', viewport: { width: 1280, height: 900 } });
      await context.route('**/*', (route) =>
        isThePage(route.request().url()) ? route.continue() : route.abort('blockedbyclient'),
      );
      await use(context);
      await browser.close();
    },
    { scope: 'file' },
  ],
  page: aDocsPage,
  shownPage: [aDocsPage, { scope: 'file' }],
});

describe.skipIf(!withChromium)(
  `docs page in headless Chromium${withChromium ? '' : ` (skipped: Chromium is not installed)`}`,
  { timeout: 60_000, concurrent: true },
  () => {
    beforeAll(async () => {
      const ensured = await ensureDocs(locations);
      if (ensured.outcome === 'failed') throw new Error(ensured.problem);
    }, 120_000);

    it('opens with no request leaving the page, and renders the overview (saved as dist/screenshots/docs/overview.png)', async ({
      page,
      expect,
    }) => {
      await page.waitForLoadState('networkidle');

      await page.screenshot({ path: path.join(SCREENSHOTS, 'overview.png'), fullPage: true });
      for (const section of ['Authentication', 'Rate limits', 'Errors']) {
        await expect
          .poll(() => page.getByRole('heading', { name: section }).isVisible(), { message: section })
          .toBe(true);
      }
    });

    it('shows each server at its address, with its description as plain text', async ({ shownPage: page, expect }) => {
      for (const server of defined(contract.servers, 'the servers of the contract')) {
        const address = server.url.replace(/\{([^}]+)\}/g, (_, name: string) =>
          defined(server.variables?.[name]?.default, `the default of {${name}}`),
        );
        const description = defined(server.description, `a description of ${server.url}`).replaceAll('`', '');
        for (const text of [description, address]) {
          await expect.poll(() => visible(page.getByText(text, { exact: true })), { message: text }).toBe(true);
        }
      }
      const shown = await page.locator('#redoc').innerText();
      expect(shown).not.toMatch(/\{base_url\}|\{staging_base_url\}/);
      expect(shown).not.toContain('(`npm start`)');
    });

    it('keeps every error code on one line in the error table', async ({ shownPage: page, expect }) => {
      const codes = keywords(propertyOf(componentSchema('Error'), 'code')).enum as string[];
      type Rendered = { textContent: string | null; getClientRects(): { length: number } };
      const lines = (
        await page
          .locator('table.md td code')
          .evaluateAll((found: Rendered[]) =>
            found.map((code) => [code.textContent ?? '', code.getClientRects().length] as const),
          )
      ).filter(([code]) => codes.includes(code));
      expect(new Set(lines.map(([code]) => code))).toEqual(new Set(codes));
      for (const [code, count] of lines) expect(count, `${code} wraps`).toBe(1);
    });

    it('lists in the navigation only the tags that have operations', async ({ shownPage: page, expect }) => {
      const tags = new Set(operationViews.map((view) => view.tag));
      for (const tag of contract.tags ?? []) {
        const link = page.getByRole('link', { name: tag.name, exact: true });
        expect(await visible(link), tag.name).toBe(tags.has(tag.name));
      }
    });

    it('switches to release 1.0.0 and back to the draft, and opens the changelog', async ({ page, expect }) => {
      const switcher = page.locator('#docs-version');
      await switcher.selectOption({ label: '1.0.0' });
      await page.waitForURL(/\/1\.0\.0\/index\.html$/);
      await expect
        .poll(() => page.getByRole('heading', { name: `${contract.info.title} (1.0.0)` }).isVisible())
        .toBe(true);
      expect(await page.locator('#docs-version option:checked').innerText()).toBe('1.0.0');

      await page.locator('#docs-version').selectOption({ label: `${contract.info.version} (draft)` });
      await page.waitForURL(pageUrl);
      await expect
        .poll(() =>
          page.getByRole('heading', { name: `${contract.info.title} (${contract.info.version})` }).isVisible(),
        )
        .toBe(true);

      await page.getByRole('link', { name: 'Changelog', exact: true }).click();
      await page.waitForURL(/\/changelog\.html$/);
      expect(await visible(page.getByRole('heading', { name: /^\[1\.0\.0\] - \d{4}-\d{2}-\d{2}$/ }))).toBe(true);
      await page.locator('#docs-version').selectOption({ label: '1.0.0' });
      await page.waitForURL(/\/1\.0\.0\/index\.html$/);
    });

    it('shows the rate-limit table of the plans', async ({ shownPage: page, expect }) => {
      await expect
        .poll(() => visible(page.getByRole('row', { name: 'Plan Requests per minute Requests per day' })))
        .toBe(true);
      // Each plan of the contract, its limits written as the table writes them: `1,000`.
      const count = (value: number) => value.toLocaleString('en-US');
      const rows = Object.entries(CONTRACT_PLANS).map(([plan, limits]) =>
        limits === 'per-key'
          ? `${plan} set per key set per key`
          : `${plan} ${count(limits.perMinute)} ${count(limits.perDay)}`,
      );
      for (const row of rows) {
        await expect
          .poll(() => visible(page.getByRole('row', { name: row, exact: true })), { message: row })
          .toBe(true);
      }
    });

    it('shows every error code of the Error schema in the error table', async ({ shownPage: page, expect }) => {
      const codes = keywords(propertyOf(componentSchema('Error'), 'code')).enum as string[];
      for (const code of codes) {
        await expect
          .poll(() => visible(page.getByRole('row', { name: new RegExp(`^${code} \\d{3} `) })), { message: code })
          .toBe(true);
      }
    });

    it('links the bundled contract for download, next to the page', async ({ shownPage: page, expect }) => {
      for (const bundle of docs.bundles) {
        const link = page.getByRole('link', { name: `Download ${bundle.name}` });
        await expect.poll(() => visible(link), { message: bundle.name }).toBe(true);
        const href = defined(await link.first().getAttribute('href'), `the address of ${bundle.name}`);
        const target = fileURLToPath(new URL(href, pageUrl));
        expect(await readFile(target, 'utf8')).toBe(await readFile(bundle.source, 'utf8'));
      }
    });

    // One page per operation, on which a reader has opened it, shared by that operation's tests and
    // closed after them: at most as many pages render at once as tests run at once.
    describe.for(operationViews)('$operationId ($summary)', (view) => {
      let opened: { page: Page; close(): Promise<void> } | undefined;
      const thePage = () => defined(opened, `the page of ${view.operationId}`).page;
      it.beforeAll(async ({ context }) => {
        opened = await openDocsPage(context);
        await openOperation(opened.page, view.tag, view.summary);
      }, 60_000);
      it.afterAll(() => opened?.close());

      it('shows its parameters, body, responses, headers, examples and curl sample', async ({ expect }) => {
        const page = thePage();
        const section = operationSection(page, view.summary);

        for (const name of [...view.parameters, ...view.bodyFields, ...view.headers, ...view.statuses]) {
          await expect.poll(() => visible(section.getByText(name, { exact: true })), { message: name }).toBe(true);
        }
        for (const text of view.exampleStrings) {
          await expect
            .poll(() => section.innerText(), { message: `the example of the success response shows ${text}` })
            .toContain(text);
        }
        await expect
          .poll(() => visible(section.getByText(view.operationId, { exact: true })), { message: 'operation id' })
          .toBe(true);
        await expect.poll(() => section.innerText(), { message: 'the curl sample' }).toContain(view.curl);
        await section.screenshot({ path: path.join(SCREENSHOTS, `operation-${view.operationId}.png`) });
      });

      it('is marked deprecated, with its removal date, only when the contract says so', async ({ expect }) => {
        const page = thePage();
        const section = operationSection(page, view.summary);

        expect(await visible(section.getByText(/^deprecated$/i))).toBe(view.deprecated);
        if (view.sunset) expect(await visible(section.getByText(view.sunset))).toBe(true);
      });

      it('is badged with its stability, beside its title and in the navigation, only when the contract says so', async ({
        expect,
      }) => {
        const page = thePage();
        const places = {
          title: page.getByRole('heading', { name: view.summary }).filter({ visible: true }).first(),
          navigation: page
            .getByRole('link', { name: new RegExp(`^${escapeRegExp(view.summary)}`) })
            .filter({ visible: true })
            .first(),
        };
        for (const [place, within] of Object.entries(places)) {
          for (const marker of ['experimental', 'beta']) {
            const badges = within.getByText(new RegExp(`^${marker}$`, 'i')).filter({ visible: true });
            expect(await badges.count(), `${marker} badges in the ${place}`).toBe(view.stability === marker ? 1 : 0);
          }
        }
      });
    });

    it("offers each code sample in the sample panel's language menu, and shows the one a reader picks", async ({
      page,
      expect,
    }) => {
      const view = defined(operationViews[0], 'an operation');
      await openOperation(page, view.tag, view.summary);
      const section = operationSection(page, view.summary);
      const samples = defined(
        pageCopy.get(view.operationId)?.['x-codeSamples'] as CodeSample[] | undefined,
        `the code samples of ${view.operationId}`,
      );
      expect(samples.map(({ label }) => label)).toEqual(SAMPLE_LANGUAGES.map(({ label }) => label));

      for (const [index, sample] of samples.entries()) {
        // The menu's button names the language shown, first the first sample's.
        const current = defined(samples[index === 0 ? 0 : index - 1], 'the language shown').label;
        const button = section.getByRole('button', { name: current, exact: true }).filter({ visible: true }).first();
        const item = page.getByRole('menuitem', { name: sample.label, exact: true }).filter({ visible: true });
        // The menu opens where its button stood at the click: a scroll still settling from the
        // navigation can leave it out of view, and a reader then opens it again.
        await vi.waitFor(
          async () => {
            await button.click();
            try {
              await item.click({ timeout: 5_000 });
            } catch (error) {
              await page.keyboard.press('Escape');
              throw error;
            }
          },
          { timeout: 60_000 },
        );
        const firstLine = defined(sample.source.split('\n')[0], `the first line of the ${sample.label} sample`);
        await expect.poll(() => section.innerText(), { message: `the ${sample.label} sample` }).toContain(firstLine);
      }
    });

    it('finds createPet with the search box and opens it', async ({ page, expect }) => {
      const createPet = defined(
        operationViews.find((view) => view.operationId === 'createPet'),
        'the view of createPet',
      );
      await page
        .getByText(/^Search\b/)
        .filter({ visible: true })
        .first()
        .click();
      await page.getByPlaceholder('Search docs...').fill('createPet');
      const result = page.getByTestId('search-dialog').getByRole('link', { name: new RegExp(createPet.summary) });
      await expect.poll(() => visible(result)).toBe(true);

      await result.first().click();

      await expect.poll(() => visible(page.getByRole('heading', { name: createPet.summary }))).toBe(true);
    });

    it("answers the console of listPets from the page's own mock when opened from a file", async ({ page, expect }) => {
      const listPets = defined(
        operationViews.find((view) => view.operationId === 'listPets'),
        'the view of listPets',
      );
      await openOperation(page, listPets.tag, listPets.summary);
      const form = page.locator('form.docs-console[data-operation="listPets"]');
      await form.getByLabel('limit (query)').fill('2');
      await form.getByRole('button', { name: /^Send GET / }).click();

      await expect
        .poll(() =>
          form
            .locator('.docs-console-status')
            .innerText()
            .catch(() => ''),
        )
        .toMatch(/^200\b/);
      const names = await form.locator('.docs-console-headers dt').allInnerTexts();
      for (const name of listPets.headers) expect(names, name).toContain(name.toLowerCase());
    });

    it('shows search snippets with the spaces of the description between its lines', async ({ page, expect }) => {
      // Words of the contract's descriptions that end a line: Redoc's index once joined them to the next line's.
      const lineEnds = [...JSON.stringify(stringLeaves(contract)).matchAll(/([A-Za-z]{4,})\\n[A-Za-z]/g)]
        .map((match) => defined(match[1], 'a word'))
        .slice(0, 3);
      expect(lineEnds, 'words that end a line of a description').toHaveLength(3);
      // The words the page says: the contract's, and what the page's copy adds (the client samples).
      const vocabulary = new Set(wordsOf(JSON.stringify(forThePage(structuredClone(contract))).replaceAll('\\n', ' ')));
      await page
        .getByText(/^Search\b/)
        .filter({ visible: true })
        .first()
        .click();
      for (const word of lineEnds) {
        await page.getByPlaceholder('Search docs...').fill(word);
        const results = page.getByTestId('search-dialog').getByRole('link').filter({ visible: true });
        await results.first().waitFor();

        // A snippet is cut with an ellipsis; the cut words are no words of the contract.
        const snippets = (await results.allInnerTexts()).join('\n').replace(/\S*(?:\.\.\.|…)\S*/g, ' ');
        const unknown = wordsOf(snippets).filter((token) => !vocabulary.has(token));
        expect(unknown, `words of the snippets for "${word}" the contract does not have`).toEqual([]);
      }
    });
  },
);

/** The words of a text, lower-cased, with no punctuation. */
function wordsOf(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

function stringLeaves(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (typeof value === 'object' && value !== null) return Object.values(value).flatMap(stringLeaves);
  return [];
}

/** A page of the published folder (the draft, a release, the changelog): the switcher moves between them. */
function isThePage(url: string): boolean {
  return url.split('#')[0]?.startsWith(`${pathToFileURL(docs.dir).href}/`) === true && url.endsWith('.html');
}

/** Whether any element the locator matches is visible (Redoc renders the sidebar twice, once hidden). */
async function visible(locator: Locator): Promise<boolean> {
  return (await locator.filter({ visible: true }).count()) > 0;
}

/** Opens an operation the way a reader does: expand its tag in the sidebar, click its entry. */
async function openOperation(page: Page, tag: string, summary: string): Promise<void> {
  await page.getByRole('link', { name: tag, exact: true }).filter({ visible: true }).click();
  await page
    .getByRole('link', { name: new RegExp(`^${summary}`) })
    .filter({ visible: true })
    .click();
  await page.getByRole('heading', { name: summary }).filter({ visible: true }).first().waitFor();
}

/** The part of the page that documents one operation, found by its heading. */
function operationSection(page: Page, summary: string): Locator {
  return page.locator('[data-section-id]').filter({ has: page.getByRole('heading', { name: summary }) });
}
