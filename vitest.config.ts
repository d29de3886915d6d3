import { defineConfig } from 'vitest/config';

// `.ci/run` sets VITEST_JSON_REPORT to read vitest's totals for its closing `N passed, N failed` line.
const jsonReport = process.env.VITEST_JSON_REPORT;

export default defineConfig({
  test: {
    reporters: jsonReport ? ['default', ['json', { outputFile: jsonReport }]] : ['default'],
  },
});
