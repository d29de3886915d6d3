// What the service keeps of webhooks, whatever the engine: the endpoints of each key line, and
// the outbox of deliveries (one per event and subscribed endpoint), written in the transaction of
// the write that caused the event and then worked off by the delivery worker (server/events/).
import type { CreatesOnce } from '../../core/idempotency/store.ts';
import type { components } from '../../generated/openapi.ts';

/** A webhook endpoint as the API answers it: without its secret. */
export type WebhookEndpoint = components['schemas']['WebhookEndpoint'];

/** The endpoint as its registration answers it, the one time its secret is shown; also what a registration stores. */
export type RegisteredEndpoint = components['schemas']['WebhookEndpointCreated'];

export interface EndpointPage {
  items: WebhookEndpoint[];
  /** The position of the last item, for the next page's cursor. */
  lastPosition: number | undefined;
  hasMore: boolean;
}

/** How the store names what it records: endpoints (`we_…`) and deliveries (`evt_…`, the `webhook-id`). */
export interface WebhookIdentifiers {
  endpoint(): string;
  delivery(): string;
}

/** A delivery the worker claimed: where to send what, signed with which secret. */
export interface ClaimedDelivery {
  /** The `webhook-id`: `evt_…`, one per event and endpoint, the same on every attempt. */
  id: string;
  endpointId: string;
  url: string;
  secret: string;
  type: string;
  /** The body exactly as every attempt sends it. */
  body: string;
  /** Attempts made before this one. */
  attempts: number;
}

/** A delivery that failed for good, as the operator lists it. */
export interface FailedDelivery {
  id: string;
  endpointId: string;
  url: string;
  type: string;
  attempts: number;
  lastError: string | null;
  createdAt: string;
}

export interface WebhookStore {
  /** The endpoints of the key line, oldest first, after `afterPosition`. */
  list(line: number, limit: number, afterPosition: number): Promise<EndpointPage>;
  /** Registers through `createOnce`; refuses with 409 endpoint_limit_reached beyond `limit` endpoints. */
  endpointsOf(line: number, limit: number): CreatesOnce<RegisteredEndpoint>;
  get(line: number, id: string): Promise<WebhookEndpoint | undefined>;
  /** Deletes the endpoint and its pending deliveries; false when the line has no endpoint of this id. */
  delete(line: number, id: string): Promise<boolean>;
  /**
   * Up to `limit` deliveries due at `now`, each leased until `leaseUntil` (a crashed attempt is
   * tried again after it), of endpoints whose key line still has an active key; a due delivery of
   * a line without one fails for good.
   */
  claimDue(now: number, limit: number, leaseUntil: number): Promise<ClaimedDelivery[]>;
  /** A 2xx answered: done. */
  delivered(id: string, now: number): Promise<void>;
  /** Another attempt at `at`, or (`at` undefined) failed for good. */
  attemptFailed(id: string, error: string, at: number | undefined): Promise<void>;
  /** The deliveries that failed for good, oldest first. */
  failed(limit: number): Promise<FailedDelivery[]>;
  /** Makes a failed (or delivered) delivery due again at `now`, keeping its id; false when none has it. */
  redeliver(id: string, now: number): Promise<boolean>;
}
