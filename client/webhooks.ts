// Receiving the service's webhooks: the signature and timestamp checked to the Standard Webhooks
// specification by the `standardwebhooks` package, and the event typed from the contract's
// `webhooks` (a union by `type`), so a receiver can switch on `event.type`.
import { WebhookVerificationError as VerificationError, Webhook } from 'standardwebhooks';
import type { webhooks } from '../generated/openapi.ts';

type EventOf<K extends keyof webhooks> = webhooks[K]['post'] extends {
  requestBody: { content: { 'application/json': infer Body } };
}
  ? Body
  : never;

/** Any event the service sends: `pet.created`, `order.created`, … as the contract declares them. */
export type WebhookEvent = { [K in keyof webhooks]: EventOf<K> }[keyof webhooks];

/** The headers of the received request: a `Headers` (fetch, Hono, …) or Node's `IncomingHttpHeaders`. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

/**
 * What verifyWebhook throws for a delivery it cannot trust (`error instanceof WebhookVerificationError`).
 * Typed as an Error's constructor: standardwebhooks' own declarations name Node's Buffer, which a
 * browser project's types do not have.
 */
export const WebhookVerificationError: new (message: string) => Error = VerificationError;

const SIGNED_HEADERS = ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const;

function headerValue(headers: WebhookHeaders, name: string): string {
  if (headers instanceof Headers) return headers.get(name) ?? '';
  const found = Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
  return Array.isArray(found) ? found.join(', ') : (found ?? '');
}

/**
 * The event a webhook request carries, once its `webhook-signature` is one of `secret` (the
 * endpoint's `whsec_…`, as its registration answered it) over the body's bytes exactly as
 * received, and its `webhook-timestamp` is within five minutes of this clock. Throws
 * WebhookVerificationError otherwise: answer such a request with a 4xx and do not act on it.
 * Deduplicate by `webhook-id`: an event may arrive more than once.
 */
export function verifyWebhook(secret: string, headers: WebhookHeaders, body: string | Uint8Array): WebhookEvent {
  const signed = Object.fromEntries(SIGNED_HEADERS.map((name) => [name, headerValue(headers, name)]));
  const payload = typeof body === 'string' ? body : new TextDecoder().decode(body);
  return new Webhook(secret).verify(payload, signed) as WebhookEvent;
}
