// GET / on the API server: a small JSON index, outside /v1, no key, not rate limited.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadContract } from '../../../contract/bundled.ts';
import { WITHOUT_KEY_LIMITS } from '../../support/contract-rate-limits.ts';
import { defined } from '../../support/defined.ts';
import { expectJsonContentType, RATE_LIMIT_HEADERS } from '../../support/http.ts';
import { createTestApp, type TestApp } from '../../support/test-app.ts';

const contract = loadContract().document as unknown as {
  info: { title: string; version: string };
  servers: { url: string }[];
};

let testApp: TestApp;

beforeEach(async () => {
  testApp = await createTestApp();
});

afterEach(() => testApp.close());

/** A request as a stranger sends it: no Authorization header at all. */
const anonymous = (target: string) => testApp.app.request(target);

describe('GET /', () => {
  it("answers without a key with the API's name, its version and base path from the contract, and where the docs are", async () => {
    const response = await anonymous('/');

    expect(response.status).toBe(200);
    expectJsonContentType(response);
    expect(await response.json()).toEqual({
      name: contract.info.title,
      version: contract.info.version,
      api: new URL(defined(contract.servers.at(-1), 'a server of the contract').url).pathname,
      docs: '/docs/',
      openapi: '/openapi.json',
    });
  });

  it('links to a contract the server serves', async () => {
    const { openapi } = (await (await anonymous('/')).json()) as { openapi: string };

    const response = await anonymous(openapi);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ info: { version: contract.info.version } });
  });

  it('is not rate limited: it carries no rate-limit headers and leaves the caller its whole window', async () => {
    const { perMinute } = WITHOUT_KEY_LIMITS;
    for (let request = 0; request < perMinute + 10; request += 1) {
      const response = await anonymous('/');
      expect(response.status).toBe(200);
      for (const header of RATE_LIMIT_HEADERS) expect(response.headers.has(header)).toBe(false);
    }

    // More than a key-less caller's minute allows went to GET /, yet the address's first counted
    // request leaves it all of that minute but this one.
    const counted = await anonymous('/v1/pets');
    expect(counted.status).toBe(401);
    expect(counted.headers.get('X-RateLimit-Remaining')).toBe(String(perMinute - 1));
  });
});
