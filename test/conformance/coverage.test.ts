import { beforeAll, describe, expect, it } from 'vitest';
import { createVitest } from 'vitest/node';
import { REPOSITORY_ROOT } from '../../support/repository-copy.ts';
import { contractSuite } from '../../vitest.config.ts';
import type { ResponseCaseMeta } from '../support/conformance/cases.ts';
import { target } from '../support/conformance/target.ts';
import { allResponses } from '../support/contract-document.ts';

/** The declared response of every `responseCase` in the suite, as collected, without running any. */
async function collectedCases(): Promise<ResponseCaseMeta[]> {
  // One worker sharing its modules across files: collecting only imports the files, so isolation buys nothing.
  const vitest = await createVitest('test', {
    config: false,
    root: REPOSITORY_ROOT,
    include: [contractSuite],
    provide: { target },
    watch: false,
    reporters: [],
    pool: 'threads',
    isolate: false,
    maxWorkers: 1,
  });
  try {
    const { testModules, unhandledErrors } = await vitest.collect();
    expect(unhandledErrors, 'errors while collecting the suite').toEqual([]);
    expect(
      testModules.flatMap((module) => module.errors()),
      'suite files that failed to load',
    ).toEqual([]);
    expect(testModules, 'suite files').not.toHaveLength(0);
    return testModules.flatMap((module) =>
      [...module.children.allTests()].flatMap((test) => test.meta().responseCase ?? []),
    );
  } finally {
    await vitest.close();
  }
}

const key = ({ operationId, status }: { operationId: string; status: number | string }) => `${operationId} ${status}`;

describe('contract suite coverage', () => {
  let cases: string[];
  beforeAll(async () => {
    cases = (await collectedCases()).map(key);
  }, 120_000);

  it.each(allResponses.map(({ operationId, status }) => [operationId, status] as const))(
    'has a case for the declared %s %s response',
    (operationId, status) => {
      expect(cases).toContain(key({ operationId, status }));
    },
  );

  it('has cases only for responses the contract declares', () => {
    const declared = new Set(allResponses.map(key));
    expect(cases.filter((found) => !declared.has(found))).toEqual([]);
  });
});
