// A key a client puts where it does not belong (the path, the query) never reaches the log
// verbatim: the server's log lines redact anything shaped like a key.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServerProcess, startServerProcess } from '../../support/server-process.ts';

const KEY = `ask_${'Zx9-_'.repeat(9)}q`;

describe('the access log of the server process', { timeout: 60_000 }, () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServerProcess({ DATABASE_PATH: ':memory:', LOG_LEVEL: 'info' });
  });
  afterAll(async () => {
    server?.child.kill('SIGKILL');
    await server?.exited;
  });

  const logged = () =>
    server
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'));

  it.each([
    ['in the path', `/v1/pets/${KEY}`],
    ['as a path segment of its own', `/v1/${KEY}/pets`],
    ['in the query', `/v1/pets?api_key=${KEY}`],
    ['in a path the HTTP layer refuses', `/v1/${KEY}\\..`],
  ])('redacts a key sent %s', async (_case, target) => {
    const before = logged().length;
    await fetch(server.baseUrl + target).catch(() => undefined);

    await expect.poll(() => logged().length).toBeGreaterThan(before);
    const lines = logged().slice(before).join('\n');
    expect(lines).not.toContain(KEY.slice(4));
    expect(server.output()).not.toContain(KEY);
  });

  it('still logs the rest of the path, with the key marked as redacted', async () => {
    const before = logged().length;
    await fetch(`${server.baseUrl}/v1/pets/${KEY}`);

    await expect.poll(() => logged().length).toBeGreaterThan(before);
    expect(logged().slice(before).join('\n')).toContain('"path":"/v1/pets/ask_[redacted]"');
  });
});
