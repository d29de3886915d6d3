// The Arazzo workflows next to the contract (openapi/flows/), run by `redocly respect` as a
// consumer runs them against a deployment: against the server and against the stateful mock.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningStatefulMock, startStatefulMock } from '../../mock/node/stateful-server.ts';
import { REPOSITORY_ROOT } from '../../support/repository-copy.ts';
import { type RealServer, startRealServer } from '../support/conformance/real-server.ts';

const FLOWS = join(REPOSITORY_ROOT, 'openapi/flows/animal-store.arazzo.yaml');
/** The flow that uses up a free key's window: it needs a target that enforces the free plan. */
const FREE_KEY_FLOW = 'freeKeyPastItsLimit';

interface Outcome {
  code: number;
  output: string;
}

function respect(baseUrl: string, inputs: Record<string, string>, selection: string[]): Promise<Outcome> {
  const args = ['respect', FLOWS, '--server', `animalStore=${baseUrl}`, ...selection];
  for (const [name, value] of Object.entries(inputs)) args.push('--input', `${name}=${value}`);
  return new Promise((resolve) => {
    execFile(
      join(REPOSITORY_ROOT, 'node_modules/.bin/redocly'),
      args,
      { env: { ...process.env, NO_COLOR: '1', REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, output: stdout + stderr }),
    );
  });
}

/** The exit code, and the checks respect marks failed (✗), so that a failure names them. */
const passed = (outcome: Outcome) => ({ code: outcome.code, failed: outcome.output.match(/^.*✗.*$/gm) });
const allPassed = { code: 0, failed: null };

let server: RealServer;
let mock: RunningStatefulMock;
let freePlanMock: RunningStatefulMock;

beforeAll(async () => {
  [server, mock, freePlanMock] = await Promise.all([
    startRealServer({ freePlanKeys: 1 }),
    startStatefulMock(),
    startStatefulMock({ plan: 'free' }),
  ]);
}, 60_000);

afterAll(async () => {
  await Promise.all([server?.close(), mock?.close(), freePlanMock?.close()]);
});

describe('the Arazzo flows, run by redocly respect', { timeout: 120_000 }, () => {
  it('pass against the server, a free key used up included', async () => {
    const outcome = await respect(
      `${server.origin}/v1`,
      { apiKey: server.apiKey, freeKey: server.freePlanKeys[0] ?? '' },
      [],
    );
    expect(passed(outcome), outcome.output).toEqual(allPassed);
  });

  it('pass against the stateful mock', async () => {
    const outcome = await respect(`${mock.url}/v1`, { apiKey: mock.apiKey }, ['--skip', FREE_KEY_FLOW]);
    expect(passed(outcome), outcome.output).toEqual(allPassed);
  });

  it('use up a free key on the stateful mock that enforces the free plan', async () => {
    const outcome = await respect(`${freePlanMock.url}/v1`, { freeKey: freePlanMock.apiKey }, [
      '--workflow',
      FREE_KEY_FLOW,
    ]);
    expect(passed(outcome), outcome.output).toEqual(allPassed);
  });
});
