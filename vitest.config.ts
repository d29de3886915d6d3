import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

// `.ci/run` sets VITEST_JSON_REPORT to read vitest's totals for its closing `N passed, N failed` line.
const jsonReport = process.env.VITEST_JSON_REPORT;

/** The contract suite, written once and run against each target below. */
export const contractSuite = 'test/contract/suite/**/*.test.ts';

/**
 * One project per target of the contract suite; its globalSetup starts the target and provides
 * it to the suite as `target`. Property runs (slow through Prism) and the tests of the suite
 * itself (coverage, response checks) run once, in the `server` project.
 */
function contractTarget(name: 'server' | 'proxy' | 'mock', extraInclude: string[] = []) {
  return {
    extends: true as const,
    test: {
      name,
      include: [contractSuite, ...extraInclude],
      globalSetup: [`test/contract/targets/${name}.ts`],
      testTimeout: 30_000,
    },
  };
}

export default defineConfig({
  test: {
    reporters: jsonReport ? ['default', ['json', { outputFile: jsonReport }]] : ['default'],
    // Most test files wait on other processes (Prism, redocly, Chromium, the server), so even on
    // two cores two workers halve the run, where vitest's default (cores - 1) would run one.
    maxWorkers: Math.max(availableParallelism(), 2),
    setupFiles: ['test/support/retain-sqlite.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'default',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, 'test/contract/**'],
        },
      },
      contractTarget('server', ['test/contract/properties/**/*.test.ts', 'test/contract/*.test.ts']),
      contractTarget('proxy'),
      contractTarget('mock'),
    ],
  },
});
