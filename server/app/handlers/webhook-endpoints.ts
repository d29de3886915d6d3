// What the contract cannot say of a webhook endpoint's registration: the secret its events are
// signed with is made here (and shown only in the 201, as the contract says), the time it was
// registered, and that its URL's address must be public. The collection layer does the rest:
// each key line's own endpoints, their limit, their pages.
import type { Clock } from '../../../core/clock.ts';
import type { ServiceFields } from '../../../core/collections/handlers.ts';
import { errors } from '../../../core/errors.ts';
import { newEndpointSecret } from '../../events/identifiers.ts';
import { type ResolveHost, webhookUrlProblem } from '../../events/public-address.ts';

export interface WebhookEndpointDeps {
  clock: Clock;
  /** WEBHOOKS_ALLOW_PRIVATE: http and private addresses accepted, for development and tests. */
  allowPrivate: boolean;
  /** How a target's host name is resolved at registration; the system's resolver by default. */
  resolveHost?: ResolveHost;
}

/** The fields of a registration the service sets, once its URL is found to be a public address. */
export function registeredEndpointFields({ clock, allowPrivate, resolveHost }: WebhookEndpointDeps): ServiceFields {
  return async (_c, body) => {
    const problem = await webhookUrlProblem(String(body.url), allowPrivate, resolveHost);
    if (problem) throw errors.invalidRequest([{ in: 'body', name: 'url', message: problem }]);
    return { secret: newEndpointSecret(), createdAt: new Date(clock.now()).toISOString() };
  };
}
