// What a reader sees of each status's `x-transitions`, in headless Chromium on the built page
// (dist/docs/index.html, opened from disk): a state diagram beside the status.
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../../../contract/bundled.ts';
import { type JsonObject, resolveRef } from '../../../contract/document.ts';
import { ensureDocs } from '../../../scripts/docs/ensure.ts';
import { docsLocations } from '../../../scripts/docs/status.ts';
import { contractLocations } from '../../../scripts/pipeline/locations.ts';
import { REPOSITORY_ROOT } from '../../../support/repository-copy.ts';
import { chromiumInstalled, connectChromium } from '../../support/chromium.ts';
import { defined } from '../../support/defined.ts';

const withChromium = chromiumInstalled('test/scripts/docs/state-diagrams.test.ts');
const locations = contractLocations(REPOSITORY_ROOT);
const contract = loadContract();
const schemas = ((contract.document.components as JsonObject).schemas ?? {}) as Record<string, JsonObject>;

/** Each status with transitions, with an operation whose body shows it (the update that changes it). */
const statuses = Object.entries(schemas)
  .filter(([, schema]) => schema['x-transitions'] !== undefined)
  .map(([name, schema]) => {
    const ref = `#/components/schemas/${name}`;
    const operation = defined(
      contract.operations.find((candidate) => {
        const body = resolveRef<JsonObject>(contract.document, candidate.bodySchema ?? {});
        return Object.values((body.properties ?? {}) as Record<string, { $ref?: string }>).some(
          (property) => property.$ref === ref,
        );
      }),
      `an operation whose body shows ${name}`,
    );
    return {
      name,
      states: schema.enum as string[],
      transitions: schema['x-transitions'] as Record<string, string[]>,
      operation,
    };
  });

/** Redoc's address of an operation's section: `#tag/<tag>/operation/<operationid>`. */
function sectionUrl(operation: (typeof contract.operations)[number]): string {
  const tag = String((operation.definition.tags as string[] | undefined)?.[0] ?? '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-');
  return `${pathToFileURL(docsLocations(locations).page).href}#tag/${tag}/operation/${operation.operationId.toLowerCase()}`;
}

describe.skipIf(!withChromium)('the docs page, as a reader sees it', { timeout: 120_000 }, () => {
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    const ensured = await ensureDocs(locations, () => {});
    if (ensured.outcome === 'failed') throw new Error(ensured.problem);
    browser = await connectChromium();
    page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await page.route('**/*', (route) =>
      route.request().url().startsWith('file:') ? route.continue() : route.abort('blockedbyclient'),
    );
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
  });

  it.each(statuses)(
    'draws $name as a state diagram: a box for each state, an arrow for each change x-transitions allow',
    async ({ name, states, transitions, operation }) => {
      await page.goto(sectionUrl(operation));
      const image = page.locator(`img[alt^="State diagram of ${name}:"]`).filter({ visible: true }).first();
      await image.waitFor();
      // Drawn: the browser decoded the picture and lays it out at its size.
      await expect
        .poll(() => image.evaluate((element) => (element as { naturalWidth: number }).naturalWidth))
        .toBeGreaterThan(100);
      const label = defined(await image.getAttribute('alt'), 'the diagram’s text');
      const changes = states.flatMap((from) => (transitions[from] ?? []).map((to) => `${from} → ${to}`));
      for (const change of changes) expect(label).toContain(change);
      // What it draws: the picture itself, opened as the browser reads it.
      const source = defined(await image.getAttribute('src'), 'the picture');
      const drawing = await browser.newPage();
      try {
        await drawing.goto(source);
        const arrows = await drawing.locator('g > title').allTextContents();
        expect(arrows.sort()).toEqual([...changes].sort());
        expect(await drawing.locator('text').allTextContents()).toEqual(states);
      } finally {
        await drawing.close();
      }
    },
  );
});
