import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

// `.ci/run` sets VITEST_JSON_REPORT to read vitest's totals for its closing `N passed, N failed` line.
const jsonReport = process.env.VITEST_JSON_REPORT;

/** The contract suite, written once and run against each target below. */
export const contractSuite = 'test/conformance/suite/**/*.test.ts';

/**
 * One project per target of the contract suite; its globalSetup starts the target and provides
 * it to the suite as `target`. Property runs (slow through Prism) and the tests of the suite
 * itself (coverage, response checks) run once, in the `server` project.
 */
function contractTarget(name: 'server' | 'proxy' | 'mock' | 'msw', extraInclude: string[] = []) {
  return {
    extends: true as const,
    test: {
      name,
      include: [contractSuite, ...extraInclude],
      globalSetup: [`test/conformance/targets/${name}.ts`],
      testTimeout: 30_000,
    },
  };
}

export default defineConfig({
  test: {
    reporters: jsonReport ? ['default', ['json', { outputFile: jsonReport }]] : ['default'],
    // Many test files wait on other processes (npm, Chromium, the server), so one worker more than
    // the cores keeps them busy; more than that only adds contention (measured on two cores).
    maxWorkers: availableParallelism() + 1,
    // Test files share their worker's modules: the contract, its compiled validators and the
    // pipeline's tools load once per worker instead of once per file. No file relies on a fresh
    // module state (none mocks modules or patches globals it does not restore).
    isolate: false,
    setupFiles: ['test/support/retain-sqlite.ts'],
    // Built once for the whole run: the compiled server, the docs, the client package installed.
    globalSetup: ['test/support/global-setup.ts'],
    // A test's timeout bounds a test that hangs; it is no measure of speed. Tests wait for conditions,
    // and on a loaded two-core machine a test that takes 1 s alone can take 20.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // expect.poll waits for a condition (a page updated, a server ready): on a loaded machine that
    // can take far more than vitest's default second; each test's own timeout still bounds it.
    expect: { poll: { timeout: 30_000, interval: 50 } },
    projects: [
      {
        extends: true,
        test: {
          name: 'default',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, 'test/conformance/**'],
        },
      },
      contractTarget('server', ['test/conformance/properties/**/*.test.ts', 'test/conformance/*.test.ts']),
      contractTarget('proxy'),
      contractTarget('mock'),
      contractTarget('msw'),
    ],
  },
});
