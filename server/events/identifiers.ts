// The identifiers and secrets webhooks are given: random, so that none can be guessed from another.
import { randomBytes } from 'node:crypto';

/** 16 random bytes in base64url: 22 characters, as the contract's patterns have them. */
const randomPart = () => randomBytes(16).toString('base64url');

/** Each delivery's `webhook-id`: one per event and endpoint, the same on every attempt. */
export const newDeliveryId = () => `evt_${randomPart()}`;

/** `whsec_` and the base64 of 32 random bytes: the Standard Webhooks form of a signing secret. */
export function newEndpointSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}
