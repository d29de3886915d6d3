// The fuzzer against the client package's MSW handlers (stateful), built as published and served
// over HTTP as the contract suite's `msw` target serves them, with a fixed seed and a small budget:
// nothing found.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { fuzz } from '../../fuzz/run.ts';
import { readDocument } from '../../fuzz/spec.ts';
import { startMswBridge } from '../conformance/targets/msw.ts';
import { BUNDLE } from '../support/fuzz/targets.ts';

/** The handlers take any well-formed bearer token as a key. */
const ANY_KEY = 'ask_fuzzfuzzfuzzfuzzfuzzfuzz';

let bridge: Awaited<ReturnType<typeof startMswBridge>>;
beforeAll(async () => {
  bridge = await startMswBridge(inject('sharedBuilds'));
}, 120_000);
afterAll(() => bridge?.close());

describe('npm run fuzz, against the MSW handlers', () => {
  it('finds nothing', async () => {
    const report = await fuzz({
      document: await readDocument(BUNDLE),
      baseUrl: `${bridge.origin}/v1`,
      key: ANY_KEY,
      seed: 36,
      maxExamples: 10,
    });
    expect(report.findings).toEqual([]);
  });
});
