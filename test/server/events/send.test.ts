// One delivery attempt checks the address it connects to, not only the one registered: a name
// that resolves to a private address by now (DNS rebinding) is refused before any byte is sent.
// Names resolve through the attempt's resolver, here one that answers at once as the hosts file
// would: the system's waits on a thread pool that the rest of the run may keep busy.
import { afterEach, describe, expect, it } from 'vitest';
import { hostResolver } from '../../../server/events/public-address.ts';
import { send } from '../../../server/events/send.ts';
import { startSilentNameServer } from '../../support/silent-name-server.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/webhook-receiver.ts';

const receivers: WebhookReceiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

const attempt = (url: string) => ({ id: 'evt_AAAAAAAAAAAAAAAAAAAAAA', url, secret: 'whsec_AAAA', body: '{}', now: 0 });
const options = {
  timeoutMs: 10_000,
  userAgent: 'test',
  allowPrivate: false,
  resolveHost: async (host: string) => (host === 'localhost' ? ['127.0.0.1', '::1'] : []),
};

describe('a delivery attempt', () => {
  it.each([
    [
      'a name that resolves to loopback',
      (port: number) => `https://localhost:${port}/hooks`,
      /^localhost resolves to .*, which is a loopback address$/,
    ],
    ['a loopback literal', (port: number) => `https://127.0.0.1:${port}/hooks`, /^127\.0\.0\.1 is a loopback address$/],
    ['http', (port: number) => `http://127.0.0.1:${port}/hooks`, /http: is not https/],
  ])('refuses %s and sends nothing', async (_, url, problem) => {
    const receiver = await startWebhookReceiver();
    receivers.push(receiver);
    const { port } = new URL(receiver.url);
    expect(await send(attempt(url(Number(port))), options)).toMatch(problem);
    expect(receiver.received).toEqual([]);
  });

  it("gives up on a name whose servers never answer after the resolver's time limit, not the attempt's", async () => {
    const server = await startSilentNameServer();
    try {
      const resolveHost = hostResolver({ servers: [server.address], timeoutMs: 300 });
      const problem = await send(attempt('https://hooks.example.test/in'), {
        ...options,
        timeoutMs: 600_000,
        resolveHost,
      });
      expect(problem).toBe('hooks.example.test did not resolve within 300 ms');
      expect(server.queries()).toBeGreaterThan(0);
    } finally {
      await server.close();
    }
  });

  it('sends to a local receiver under WEBHOOKS_ALLOW_PRIVATE', async () => {
    const receiver = await startWebhookReceiver();
    receivers.push(receiver);
    expect(await send(attempt(receiver.url), { ...options, allowPrivate: true })).toBeUndefined();
    expect(receiver.received).toHaveLength(1);
  });
});
