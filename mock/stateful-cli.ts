// `npm run mock:stateful`: the real server on an in-memory database at
// http://127.0.0.1:${MOCK_PORT:-4010}/v1, seeded from the contract's examples, with a fixed key.
import { readConfig } from '../server/config.ts';
import { listenPort, printAndExitOnFailure, stopOnSignals } from './cli-support.ts';
import { startStatefulMock } from './stateful.ts';

await printAndExitOnFailure(async () => {
  const port = listenPort(process.env);
  const { corsOrigins, logLevel } = readConfig({ ...process.env, LOG_LEVEL: process.env.LOG_LEVEL || 'warn' });
  const mock = await startStatefulMock({ port, corsOrigins, logLevel });
  const ids = mock.seeded.map((pet) => pet.id).join(', ');
  console.log(`Animal Store API stateful mock (the real server, in memory) on ${mock.url}/v1.`);
  console.log(`Seeded from the contract's examples with the pets ${ids}; everything is forgotten at exit.`);
  console.log(`Development key (free plan: 60 requests a minute, 1,000 a day): ${mock.apiKey}`);
  console.log(`Try: curl -H 'Authorization: Bearer ${mock.apiKey}' ${mock.url}/v1/pets`);
  console.log('Ctrl-C to stop.');
  stopOnSignals(mock);
}, 'mock:stateful');
