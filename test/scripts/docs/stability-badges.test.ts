// An experimental collection added to a copy of the contract (test/support/widgets-collection.ts),
// `npm run generate`, released, then `npm run docs`: in headless Chromium, every published version
// that has the collection (the draft's page and the release's) shows each of its operations with
// a badge naming its stability, whole, beside its title and its entry in the navigation; the
// operations without a marker have none.
import { cp } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationObjects } from '../../../contract/document.ts';
import { buildDocs } from '../../../scripts/docs/build.ts';
import { chromiumInstalled, connectChromium } from '../../support/chromium.ts';
import { release, setVersion, versionCalledFor } from '../../support/contract-release.ts';
import { escapeRegExp } from '../../support/text.ts';
import { addWidgetsCollection, type WidgetsCollection } from '../../support/widgets-collection.ts';
import { createWorkspace, repoRoot, type Workspace } from '../../support/workspace.ts';

const withChromium = chromiumInstalled('test/scripts/docs/stability-badges.test.ts');

interface ShownOperation {
  tag: string;
  summary: string;
  /** `experimental`, `beta`, or undefined for an operation without a marker. */
  stability: string | undefined;
}

describe.skipIf(!withChromium)(
  `stability badges in the docs of a new experimental collection${withChromium ? '' : ' (skipped: Chromium is not installed)'}`,
  { timeout: 120_000 },
  () => {
    let workspace: Workspace;
    let widgets: WidgetsCollection;
    let version: string;
    let browser: Browser;
    /** The operations of the released contract, as its page should show them. */
    let shown: ShownOperation[];

    beforeAll(async () => {
      workspace = await createWorkspace();
      await cp(path.join(repoRoot, 'releases'), workspace.path('releases'), { recursive: true });
      await cp(path.join(repoRoot, 'CHANGELOG.md'), workspace.path('CHANGELOG.md'));
      widgets = await addWidgetsCollection(workspace.root, { stability: 'experimental' });
      version = await versionCalledFor(workspace.locations);
      await setVersion(workspace.locations, version);
      await release(workspace.locations, version);
      const built = await buildDocs(workspace.locations, () => {});
      if (!built.ok) throw new Error(built.problem);
      const contract = JSON.parse(await workspace.read(`releases/${version}/openapi.json`));
      shown = operationObjects(contract).map(({ definition }) => ({
        tag: (definition.tags as string[])[0] as string,
        summary: definition.summary as string,
        stability: definition['x-stability'] as string | undefined,
      }));
      browser = await connectChromium();
    }, 120_000);
    afterAll(async () => {
      await browser?.close();
      await workspace?.dispose();
    });

    it('has the collection in the contract, marked as the edit marked it', () => {
      for (const operation of widgets.operations)
        expect(shown).toContainEqual({ tag: widgets.tag, summary: operation.summary, stability: operation.stability });
    });

    for (const edition of ['the draft', 'the release'] as const) {
      it(`shows each operation's stability beside its title and in the navigation, on ${edition}'s page`, async () => {
        const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
        try {
          const file = edition === 'the draft' ? 'dist/docs/index.html' : `dist/docs/${version}/index.html`;
          await page.route('**/*', (route) =>
            route.request().url().startsWith('file:') ? route.continue() : route.abort('blockedbyclient'),
          );
          await page.goto(pathToFileURL(workspace.path(file)).href);
          for (const operation of shown) await expectBadge(await navigationEntry(page, operation), operation);
          for (const operation of shown.filter(({ stability }) => stability !== undefined)) {
            await (await navigationEntry(page, operation)).click();
            const heading = page.getByRole('heading', { name: operation.summary }).filter({ visible: true }).first();
            await heading.waitFor();
            await expectBadge(heading, operation);
          }
        } finally {
          await page.close();
        }
      });
    }
  },
);

/** The operation's entry in the navigation, its tag opened first when it is closed. */
async function navigationEntry(page: Page, { tag, summary }: ShownOperation): Promise<Locator> {
  const entry = page
    .getByRole('link', { name: new RegExp(`^${escapeRegExp(summary)}`) })
    .filter({ visible: true })
    .first();
  if ((await entry.count()) === 0)
    await page.getByRole('link', { name: tag, exact: true }).filter({ visible: true }).click();
  await entry.waitFor();
  return entry;
}

/** A badge naming the operation's stability, all of its word shown, where it has one; no badge where not. */
async function expectBadge(within: Locator, { summary, stability }: ShownOperation): Promise<void> {
  for (const marker of ['experimental', 'beta']) {
    const badge = within.getByText(new RegExp(`^${marker}$`, 'i')).filter({ visible: true });
    await expect
      .poll(() => badge.count(), { message: `${summary}: ${marker} badges` })
      .toBe(marker === stability ? 1 : 0);
    if (marker !== stability) continue;
    // Redoc cuts a badge's text that overflows its box with an ellipsis: the text must fit.
    const fits = await badge.evaluate((element) => {
      const text = element.ownerDocument.createRange();
      text.selectNodeContents(element);
      return text.getBoundingClientRect().width <= element.getBoundingClientRect().width;
    });
    expect(fits, `${summary}: the ${marker} badge shows its whole word`).toBe(true);
  }
}
