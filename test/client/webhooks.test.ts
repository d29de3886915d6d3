// verifyWebhook as a receiver uses it: the event of a delivery signed with the endpoint's secret,
// typed; anything altered, signed with another secret or older than five minutes refused.
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { verifyWebhook, WebhookVerificationError } from '../../client/index.ts';
import { loadContract } from '../../contract/bundled.ts';
import { webhookEvents } from '../../contract/webhooks.ts';
import { newEndpointSecret } from '../../server/events/identifiers.ts';
import { webhookSignature } from '../../server/events/signature.ts';

const secret = newEndpointSecret();
const examples = webhookEvents(loadContract().document);

function signedBy(sign: (id: string, seconds: number, body: string) => string, event: unknown, ageSeconds = 0) {
  const body = JSON.stringify(event);
  const seconds = Math.floor(Date.now() / 1000) - ageSeconds;
  const id = 'evt_2Lx8fQ0vTq9mZb3RkW7yNs';
  return {
    body,
    headers: { 'webhook-id': id, 'webhook-timestamp': String(seconds), 'webhook-signature': sign(id, seconds, body) },
  };
}

const byThePackage = (id: string, seconds: number, body: string) =>
  new Webhook(secret).sign(id, new Date(seconds * 1000), body);
const byTheServer = (id: string, seconds: number, body: string) => webhookSignature(secret, id, seconds, body);

describe('verifyWebhook', () => {
  it.each(examples)(
    'returns the $type example signed by the service, and by the standardwebhooks package',
    ({ example }) => {
      for (const sign of [byTheServer, byThePackage]) {
        const { body, headers } = signedBy(sign, example);
        expect(verifyWebhook(secret, headers, body)).toEqual(example);
        expect(verifyWebhook(secret, new Headers(headers), new TextEncoder().encode(body))).toEqual(example);
      }
    },
  );

  it.each([
    [
      'an altered body',
      () => ({ ...signedBy(byTheServer, examples[0]?.example), body: '{"type":"pet.created"}' }),
      secret,
    ],
    ['another secret', () => signedBy(byTheServer, examples[0]?.example), newEndpointSecret()],
    ['a timestamp more than five minutes old', () => signedBy(byTheServer, examples[0]?.example, 6 * 60), secret],
    ['no signature', () => ({ ...signedBy(byTheServer, examples[0]?.example), headers: {} }), secret],
  ])('refuses %s with WebhookVerificationError', (_, delivery, key) => {
    const { headers, body } = delivery();
    expect(() => verifyWebhook(key, headers, body)).toThrow(WebhookVerificationError);
  });
});
