// `npm run mock:stateful [-- --plan <plan>] [--pets <N>] [--seed <value>] [--scenario <name>] [--delay <ms|min-max>]`:
// every collection of the contract in memory at http://127.0.0.1:${MOCK_PORT:-4010}/v1, seeded
// from the contract's examples (or N generated items per collection), with a fixed key.
import { loadContract } from '../../contract/contract.ts';
import { rateLimitRules } from '../../contract/rate-limit-rules.ts';
import { isPlan } from '../../core/keys/plans.ts';
import { readConfig } from '../../server/process/config.ts';
import { MOCK_PLAN } from '../app/access.ts';
import { allowedHostsOf } from './allowed-hosts.ts';
import {
  delayFlag,
  listenPort,
  petsFlag,
  printAndExitOnFailure,
  readFlags,
  stopOnSignals,
  UsageError,
} from './cli-support.ts';
import { mockOrigins } from './origins.ts';
import { startStatefulMock } from './stateful-server.ts';

await printAndExitOnFailure(async () => {
  const flags = readFlags({ plan: { type: 'string' } });
  const fixedPlans = Object.entries(rateLimitRules(loadContract().document).plans)
    .filter(([, limits]) => limits !== 'per-key')
    .map(([plan]) => plan);
  if (flags.plan !== undefined && (!isPlan(flags.plan) || !fixedPlans.includes(flags.plan)))
    throw new UsageError(`--plan takes a plan with fixed limits (${fixedPlans.join(', ')}); got "${flags.plan}".`);
  const port = listenPort(process.env);
  const { logLevel } = readConfig({ ...process.env, LOG_LEVEL: process.env.LOG_LEVEL || 'warn' });
  const origins = mockOrigins(process.env);
  const mock = await startStatefulMock({
    port,
    corsOrigins: origins.origins,
    allowedHosts: allowedHostsOf(process.env),
    logLevel,
    plan: flags.plan,
    pets: petsFlag(flags.pets),
    seed: flags.seed,
    scenario: flags.scenario,
    delay: delayFlag(flags.delay),
  });
  const limits =
    flags.plan === undefined
      ? `not rate limited (its headers count down a ${MOCK_PLAN}-plan window; --plan free meets the real limits)`
      : `rate limited as a ${flags.plan}-plan key`;
  console.log(`Animal Store API stateful mock (every collection of the contract, in memory) on ${mock.url}/v1.`);
  const seeded = [...mock.seeded].map(([collection, items]) => `${items.length} ${collection}`).join(', ');
  console.log(`Seeded with ${seeded}; everything is forgotten at exit.`);
  console.log(`Development key, ${limits}: ${mock.apiKey}`);
  console.log(`Browsers may call it from ${origins.described}.`);
  console.log(`Back to the seed: curl -X POST -H 'Content-Type: application/json' ${mock.url}/__mock/reset`);
  console.log(`Try: curl -H 'Authorization: Bearer ${mock.apiKey}' ${mock.url}/v1/pets`);
  console.log('Ctrl-C to stop.');
  stopOnSignals(mock);
}, 'mock:stateful');
