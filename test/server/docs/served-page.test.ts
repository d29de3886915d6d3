import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDocs } from '../../../scripts/docs/ensure.ts';
import { contractLocations } from '../../../scripts/pipeline/locations.ts';
import { REPOSITORY_ROOT } from '../../../support/repository-copy.ts';
import { chromiumInstalled, connectChromium } from '../../support/chromium.ts';
import { contract } from '../../support/contract-document.ts';
import { type ListeningApp, startListeningApp } from '../../support/listening-app.ts';

const withChromium = chromiumInstalled('test/server/docs/served-page.test.ts');

describe.skipIf(!withChromium)('GET /docs/ in a browser', { timeout: 120_000 }, () => {
  let app: ListeningApp;
  let browser: Browser;
  beforeAll(async () => {
    const ensured = await ensureDocs(contractLocations(REPOSITORY_ROOT));
    if (ensured.outcome === 'failed') throw new Error(ensured.problem);
    [app, browser] = await Promise.all([startListeningApp(), connectChromium()]);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('forbids framing and sends a policy that allows no script from elsewhere', async () => {
    const response = await fetch(`${app.origin}/docs/`);

    expect(response.headers.get('X-Frame-Options')).toBe('DENY');
    const policy = response.headers.get('Content-Security-Policy') ?? '';
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toMatch(/script-src[^;]*'unsafe-inline'/);
  });

  it('renders, switches versions and searches with no policy violation', async () => {
    const context = await browser.newContext({ serviceWorkers: 'block' });
    // A string: the test's own code is type-checked without the DOM's types.
    await context.addInitScript({
      content: `window.violations = [];
        document.addEventListener('securitypolicyviolation', (event) =>
          window.violations.push(event.violatedDirective + ' ' + event.blockedURI));`,
    });
    const page = await context.newPage();
    const violations = async () => (await page.evaluate('window.violations')) as string[];
    const heading = (version: string) =>
      page
        .getByRole('heading', { name: `${contract.info.title} (${version})` })
        .filter({ visible: true })
        .first();

    await page.goto(`${app.origin}/docs/`);
    await heading(contract.info.version).waitFor();
    expect(await violations()).toEqual([]);

    await page
      .getByText(/^Search\b/)
      .filter({ visible: true })
      .first()
      .click();
    await page.getByPlaceholder('Search docs...').fill('createPet');
    await expect
      .poll(() => page.getByTestId('search-dialog').getByRole('link').count(), { timeout: 30_000 })
      .toBeGreaterThan(0);
    expect(await violations()).toEqual([]);
    await page.keyboard.press('Escape');

    await page.locator('#docs-version').selectOption({ label: '1.0.0' });
    await page.waitForURL(/\/docs\/1\.0\.0\//);
    await heading('1.0.0').waitFor();
    expect(await violations()).toEqual([]);
    await context.close();
  });
});
