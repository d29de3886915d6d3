// The fuzzer's default run against the service (SQLite, real keys and limiters, as the contract
// suite starts it), with a fixed seed: nothing found. The key is an enterprise key whose limits the
// run cannot reach, so no 429 stands in for an answer; the run's own requests without a key count
// against the address's free-plan window like anyone's, and are few enough to stay inside it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FuzzReport, fuzz } from '../../fuzz/run.ts';
import { readDocument } from '../../fuzz/spec.ts';
import { type RealServer, startRealServer } from '../support/conformance/real-server.ts';
import { BUNDLE } from '../support/fuzz/targets.ts';

let server: RealServer;
let report: FuzzReport;
beforeAll(async () => {
  server = await startRealServer();
  // The default budget, as `npm run fuzz` runs it: it must send at least 500 requests.
  report = await fuzz({
    document: await readDocument(BUNDLE),
    baseUrl: `${server.origin}/v1`,
    key: server.apiKey,
    seed: 33,
  });
  // Some 1,400 requests on two shared cores: the bound of a hang, not a measure of speed.
}, 300_000);
afterAll(() => server?.close());

describe('npm run fuzz with its defaults, against the server', () => {
  it('finds nothing', () => {
    expect(report.findings).toEqual([]);
    expect(report.skippedChecks).toEqual({ max_response_time: 'no --max-response-time given' });
  });

  it('sends at least 500 requests, to every operation, and gets every kind of answer it asks for', () => {
    expect(report.requests).toBeGreaterThanOrEqual(500);
    for (const [operationId, { requests }] of Object.entries(report.operations))
      expect(requests, `requests to ${operationId}`).toBeGreaterThan(0);
    const statuses = new Set(Object.values(report.operations).flatMap(({ statuses }) => Object.keys(statuses)));
    for (const status of ['200', '201', '400', '401', '404', '413', '415']) expect(statuses).toContain(status);
  });
});
