// `npm run mock [-- --dynamic] [--seed <value>] [--verbose]`: Prism on the bundled contract at
// http://127.0.0.1:${MOCK_PORT:-4010}/v1, regenerating and serving the contract again after
// every edit under openapi/.
import { parseArgs } from 'node:util';
import { listenPort, printAndExitOnFailure, stopOnSignals } from './cli-support.ts';
import { startMock } from './mock-server.ts';

const { values: flags } = parseArgs({
  options: {
    dynamic: { type: 'boolean', default: false },
    seed: { type: 'string' },
    verbose: { type: 'boolean', default: false },
  },
});

await printAndExitOnFailure(async () => {
  const port = listenPort(process.env);
  const mock = await startMock({
    port,
    dynamic: flags.dynamic,
    seed: flags.seed,
    watch: true,
    quiet: !flags.verbose,
    log: (line) => console.log(line),
  });
  const answers = flags.dynamic
    ? `data generated from the schemas${flags.seed === undefined ? '' : ` with seed ${flags.seed}`}`
    : "the contract's named examples";
  console.log(`Animal Store API mock (Prism) on ${mock.url}/v1, answering with ${answers}.`);
  console.log(`Try: curl -H 'Authorization: Bearer ask_any_key_works_here' ${mock.url}/v1/pets`);
  console.log('Edits under openapi/ are served within about 2 s. Ctrl-C to stop.');
  stopOnSignals(mock);
}, 'mock');
