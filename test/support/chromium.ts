// Debian's headless Chromium, as the browser tests launch it.
import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

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

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}
