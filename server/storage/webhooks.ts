// What the service keeps of webhooks, whatever the engine: the outbox of deliveries (one per event
// and subscribed endpoint), written in the transaction of the write that caused the event and
// then worked off by the delivery worker (server/events/). The endpoints are a collection of the
// contract's, kept by the collection layer; the outbox reads their table.

/**
 * The table of the contract's `/webhook-endpoints`, with its owner column `key_line`: the endpoints
 * the outbox sends to. Removing one removes its deliveries in the same transaction.
 */
export const ENDPOINTS_TABLE = 'webhook_endpoints';

/** How the store names each delivery: `evt_…`, the `webhook-id`. */
export type DeliveryIdentifier = () => string;

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
