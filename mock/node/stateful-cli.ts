// `npm run mock:stateful [-- --plan <plan>] [--pets <N>] [--seed <value>] [--scenario <name>] [--delay <ms|min-max>]`:
// every collection of the contract in memory at http://127.0.0.1:${MOCK_PORT:-4010}/v1, seeded
// from the contract's examples (or N generated items per collection), with a fixed key.
import { UsageError } from '../../core/errors.ts';
import { hasLimitsPerKey, isPlan, PLANS } from '../../core/keys/plans.ts';
import { MOCK_PLAN } from '../app/access.ts';
import { delayFlag, exitOnFailure, petsFlag, readFlags, stopOnSignals } from './cli-support.ts';
import { readMockConfig } from './config.ts';
import { startStatefulMock } from './stateful-server.ts';

await exitOnFailure(async () => {
  const flags = readFlags({ plan: { type: 'string' } });
  const fixedPlans = PLANS.filter((plan) => !hasLimitsPerKey(plan));
  if (flags.plan !== undefined && (!isPlan(flags.plan) || hasLimitsPerKey(flags.plan)))
    throw new UsageError(`--plan takes a plan with fixed limits (${fixedPlans.join(', ')}); got "${flags.plan}".`);
  const { port, origins, allowedHosts, logLevel } = readMockConfig(process.env);
  const mock = await startStatefulMock({
    port,
    corsOrigins: origins.allowed,
    allowedHosts,
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
