import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createVitest } from 'vitest/node';
import { REPOSITORY_ROOT } from '../../support/repository-copy.ts';
import { contractSuite } from '../../vitest.config.ts';
import type { ResponseCaseMeta } from '../support/conformance/cases.ts';
import { target } from '../support/conformance/target.ts';
import { allResponses } from '../support/contract-document.ts';

/** A `responseCase` as collected: the declared response it is the case for, and the file it is in. */
type CollectedCase = ResponseCaseMeta & { file: string };

/** The declared response of every `responseCase` in the suite, as collected, without running any. */
async function collectedCases(): Promise<CollectedCase[]> {
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
      [...module.children.allTests()].flatMap((test) => {
        const found = test.meta().responseCase;
        return found ? [{ ...found, file: path.relative(REPOSITORY_ROOT, module.moduleId) }] : [];
      }),
    );
  } finally {
    await vitest.close();
  }
}

const key = ({ operationId, status }: { operationId: string; status: number | string }) => `${operationId} ${status}`;

/**
 * Where a case of `operationId` belongs: the file that has its other cases, else a new file named
 * after the operation (`updatePet` → `update-pet.test.ts`).
 */
function fileFor(collected: CollectedCase[], operationId: string): string {
  const kebab = operationId.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
  return (
    collected.find((found) => found.operationId === operationId)?.file ?? `test/conformance/suite/${kebab}.test.ts`
  );
}

describe('contract suite coverage', () => {
  let collected: CollectedCase[];
  let cases: string[];
  beforeAll(async () => {
    collected = await collectedCases();
    cases = collected.map(key);
  }, 120_000);

  it.each(allResponses.map(({ operationId, status }) => [operationId, status] as const))(
    'has a case for the declared %s %s response',
    (operationId, status) => {
      expect(
        cases,
        `The contract declares a ${status} response of ${operationId}, and the contract suite has no case for it: add \`responseCase('${operationId}', ${status}, '<when it is answered>', async (call) => { ... })\` to ${fileFor(collected, operationId)}.`,
      ).toContain(key({ operationId, status }));
    },
  );

  it('has cases only for responses the contract declares', () => {
    const declared = new Set(allResponses.map(key));
    expect(cases.filter((found) => !declared.has(found))).toEqual([]);
  });
});
