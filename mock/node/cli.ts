// `npm run mock [-- --dynamic] [--seed <value>] [--pets <N>] [--scenario <name>] [--delay <ms|min-max>]`:
// the mock at http://127.0.0.1:${MOCK_PORT:-4010}/v1, serving the contract again after every
// edit under openapi/.

import { delayFlag, exitOnFailure, petsFlag, readFlags, stopOnSignals } from './cli-support.ts';
import { readMockConfig } from './config.ts';
import { startMock } from './server.ts';

await exitOnFailure(async () => {
  const flags = readFlags({ dynamic: { type: 'boolean', default: false } });
  const { port, origins, allowedHosts } = readMockConfig(process.env);
  const pets = petsFlag(flags.pets);
  const mock = await startMock({
    port,
    dynamic: flags.dynamic || pets !== undefined,
    seed: flags.seed,
    pets,
    scenario: flags.scenario,
    delay: delayFlag(flags.delay),
    corsOrigins: origins.allowed,
    allowedHosts,
    watch: true,
    log: (line) => console.log(line),
  });
  const answers =
    flags.dynamic || pets !== undefined
      ? `items generated from the schemas${flags.seed === undefined ? '' : ` with seed ${flags.seed}`}`
      : "the items of the contract's examples";
  console.log(`Animal Store API mock on ${mock.url}/v1, answering with ${answers}; any API key works.`);
  console.log(`Scenario: ${flags.scenario ?? 'default'} (list them: curl ${mock.url}/__mock/scenarios).`);
  console.log(`Browsers may call it from ${origins.described}.`);
  console.log(`Try: curl -H 'Authorization: Bearer ask_any_key_works_here' ${mock.url}/v1/pets`);
  console.log('Edits under openapi/ are served within about 2 s. Ctrl-C to stop.');
  stopOnSignals(mock);
}, 'mock');
