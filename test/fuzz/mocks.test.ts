// The fuzzer against both mocks of `npm run mock:stateful` and `npm run mock`, with a fixed seed
// and a small budget: nothing found. The static mock keeps nothing it is sent, so the run is told
// (`stateful: false`, the CLI's --stateless) and its report names the checks switched off.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenApiDocument } from '../../contract/document.ts';
import { fuzz } from '../../fuzz/run.ts';
import { readDocument } from '../../fuzz/spec.ts';
import { type RunningMock, startMock } from '../../mock/node/server.ts';
import { type RunningStatefulMock, STATEFUL_MOCK_KEY, startStatefulMock } from '../../mock/node/stateful-server.ts';
import { BUNDLE } from '../support/fuzz/targets.ts';

/** The static mock takes any well-formed bearer token as a key. */
const ANY_KEY = 'ask_fuzzfuzzfuzzfuzzfuzzfuzz';

let document: OpenApiDocument;
let statefulMock: RunningStatefulMock;
let staticMock: RunningMock;
beforeAll(async () => {
  [document, statefulMock, staticMock] = await Promise.all([
    readDocument(BUNDLE),
    startStatefulMock({ logLevel: 'silent' }),
    startMock({ log: () => {} }),
  ]);
}, 120_000);
afterAll(async () => {
  await Promise.all([statefulMock?.close(), staticMock?.close()]);
});

describe('npm run fuzz, against the mocks', () => {
  it('finds nothing wrong with the stateful mock', async () => {
    const report = await fuzz({
      document,
      baseUrl: `${statefulMock.url}/v1`,
      key: STATEFUL_MOCK_KEY,
      seed: 34,
      maxExamples: 10,
    });
    expect(report.findings).toEqual([]);
  });

  it('finds nothing wrong with the static mock, with the checks that need state switched off and named', async () => {
    const report = await fuzz({
      document,
      baseUrl: `${staticMock.url}/v1`,
      key: ANY_KEY,
      seed: 35,
      maxExamples: 10,
      stateful: false,
    });
    expect(report.findings).toEqual([]);
    expect(Object.keys(report.skippedChecks)).toContain('use_after_create');
  });
});
