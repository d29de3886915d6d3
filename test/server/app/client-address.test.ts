// Requests without a valid key are limited per client address. Behind a proxy (TRUST_PROXY) the
// address is the last X-Forwarded-For entry, and it must be an IP address: anything else would let
// a client make up a bucket per request, of any size. IPv6 clients are limited per /64.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServerProcess, startServerProcess } from '../../support/server-process.ts';

describe('the address a request without a key is limited by, behind a trusted proxy', { timeout: 60_000 }, () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServerProcess({ DATABASE_PATH: ':memory:', TRUST_PROXY: 'true' });
  });
  afterAll(async () => {
    server?.child.kill('SIGKILL');
    await server?.exited;
  });

  /** What is left of the window of the address `forwardedFor` stands for, after this request. */
  async function remainingAfter(forwardedFor: string | undefined): Promise<number> {
    const headers: Record<string, string> = forwardedFor === undefined ? {} : { 'X-Forwarded-For': forwardedFor };
    const response = await fetch(`${server.baseUrl}/v1/pets`, { headers });
    expect(response.status).toBe(401);
    return Number(response.headers.get('X-RateLimit-Remaining'));
  }

  it.each([
    ['8,000 characters', 'a'.repeat(8_000)],
    ['a host name', 'client.example'],
    ['an address with a port', '198.51.100.7:4000'],
    ['an octal IPv4 form', '0300.0000.0002.0001'],
    ['a bracketed IPv6 address', '[2001:db8::1]'],
  ])('counts an entry that is %s against the peer address, never a bucket of its own', async (_case, entry) => {
    const peer = await remainingAfter(undefined);

    expect(await remainingAfter(`203.0.113.9, ${entry}`)).toBe(peer - 1);
    expect(await remainingAfter(undefined)).toBe(peer - 2);
  });

  it('counts a valid last entry as its own address', async () => {
    const first = await remainingAfter('198.51.100.20');

    expect(await remainingAfter('203.0.113.9, 198.51.100.20')).toBe(first - 1);
    expect(await remainingAfter('198.51.100.21')).toBe(first);
  });

  it('counts every address of one IPv6 /64 together, and another /64 apart', async () => {
    const first = await remainingAfter('2001:db8:aa:1::1');

    expect(await remainingAfter('2001:db8:aa:1:ffff:ffff:ffff:ffff')).toBe(first - 1);
    expect(await remainingAfter('2001:DB8:AA:1:0:0:0:2')).toBe(first - 2);
    expect(await remainingAfter('2001:db8:aa:2::1')).toBe(first);
  });

  it('counts an IPv4-mapped IPv6 address as the IPv4 address', async () => {
    const first = await remainingAfter('198.51.100.30');

    expect(await remainingAfter('::ffff:198.51.100.30')).toBe(first - 1);
  });
});
