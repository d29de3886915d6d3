// Tools of other ecosystems that a test runs (Go, Java): CI installs them, so there a missing one
// fails the test file; on a developer's machine without one, its tests skip and say how to get it.
import { spawnSync } from 'node:child_process';

/** Whether `command` runs here (asked with `versionArgs`); in CI, throws when it does not. */
export function installed(command: string, versionArgs: string[], install: string, testFile: string): boolean {
  const { error, status } = spawnSync(command, versionArgs, { stdio: 'ignore' });
  if (error === undefined && status === 0) return true;
  const missing = `${testFile}: ${command} is not installed (${install}; .ci/run installs it)`;
  if (process.env.CI) throw new Error(missing);
  console.warn(`${missing}; its tests skip.`);
  return false;
}
