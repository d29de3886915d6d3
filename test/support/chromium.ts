// Debian's headless Chromium, as the browser tests use it: one browser for the whole run, started
// by the global setup (test/support/global-setup.ts), to which each test file connects.
import { existsSync } from 'node:fs';
import { type Browser, type BrowserServer, chromium } from 'playwright-core';
import { inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the run's Chromium listens; undefined when Chromium is not installed. */
    chromiumEndpoint: string | undefined;
  }
}

const CHROMIUM = '/usr/bin/chromium';
// Without the background-networking flags, Chromium itself tries to reach Google's hosts, which
// this machine's closed network refuses.
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Whether Chromium is installed; when not, says so once for `testFile`, whose tests then skip. */
export function chromiumInstalled(testFile: string): boolean {
  const installed = existsSync(CHROMIUM);
  if (!installed)
    console.warn(`${testFile} skipped: ${CHROMIUM} is not installed (apt-get install chromium; .ci/run installs it).`);
  return installed;
}

/** The run's Chromium, started once by the global setup; undefined when it is not installed. */
export async function startChromium(): Promise<BrowserServer | undefined> {
  if (!existsSync(CHROMIUM)) return undefined;
  return chromium.launchServer({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

/**
 * The run's Chromium, for one test file: closing it closes the file's contexts and pages and
 * leaves the browser to the other files.
 */
export function connectChromium(): Promise<Browser> {
  const endpoint = inject('chromiumEndpoint');
  if (endpoint === undefined) throw new Error(`${CHROMIUM} is not installed: check chromiumInstalled() first.`);
  return chromium.connect(endpoint);
}
