// The delivery worker: works off the outbox the creates write (server/storage/*/webhooks.ts) in
// the background, so no request waits for a webhook. Each due delivery is claimed (by one
// instance among several), leased for the length of an attempt, sent, and then done, due again
// on the contract's schedule, or failed for good. A process killed mid-attempt leaves the lease
// to run out: the delivery is attempted again, with the same `webhook-id` (at least once).
import type { Contract } from '../../contract/contract.ts';
import { webhookDelivery } from '../../contract/webhooks.ts';
import type { Clock } from '../../core/clock.ts';
import type { Logger } from '../../core/logger.ts';
import type { ClaimedDelivery, WebhookStore } from '../storage/webhooks.ts';
import type { ResolveHost } from './public-address.ts';
import { send } from './send.ts';

/** What a delivery's attempt came to, as the metrics count it. */
export type DeliveryResult = 'delivered' | 'retried' | 'failed';

export interface DeliveryObserver {
  attempted(result: DeliveryResult): void;
}

export interface DeliveryWorkerOptions {
  store: WebhookStore;
  contract: Contract;
  clock: Clock;
  logger: Logger;
  allowPrivate: boolean;
  /** How targets' host names are resolved; the system's resolver by default. */
  resolveHost?: ResolveHost;
  observer?: DeliveryObserver;
  /** How often the outbox is looked at when nothing is due. */
  pollMs?: number;
}

/** Deliveries claimed at once; the next batch is claimed as soon as these are settled. */
const BATCH = 32;
/** Beyond the attempt's timeout, before a leased delivery is taken for abandoned. */
const LEASE_MARGIN_MS = 5_000;
const DEFAULT_POLL_MS = 200;

export interface DeliveryWorker {
  /**
   * Stops claiming. Attempts in progress are not waited for: the storage closes under them, and
   * their deliveries, still leased, are attempted again once the lease runs out (at least once).
   */
  stop(): void;
}

export function startDeliveryWorker({
  store,
  contract,
  clock,
  logger,
  allowPrivate,
  resolveHost,
  observer,
  pollMs = DEFAULT_POLL_MS,
}: DeliveryWorkerOptions): DeliveryWorker {
  const { timeoutSeconds, retryDelaysSeconds } = webhookDelivery(contract.document);
  const timeoutMs = timeoutSeconds * 1000;
  const userAgent = `AnimalStore-Webhooks/${contract.document.info.version}`;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;

  const attempt = async (delivery: ClaimedDelivery) => {
    const now = clock.now();
    const problem = await send(
      { id: delivery.id, url: delivery.url, secret: delivery.secret, body: delivery.body, now },
      { timeoutMs, userAgent, allowPrivate, ...(resolveHost && { resolveHost }) },
    );
    if (problem === undefined) {
      await store.delivered(delivery.id, clock.now());
      observer?.attempted('delivered');
      return;
    }
    // The wait after the first failed attempt is the schedule's first, and so on.
    const delay = retryDelaysSeconds[delivery.attempts];
    await store.attemptFailed(delivery.id, problem, delay === undefined ? undefined : clock.now() + delay * 1000);
    observer?.attempted(delay === undefined ? 'failed' : 'retried');
    if (delay === undefined && !stopped)
      logger.warn({ event: 'webhook_failed', webhookId: delivery.id, endpointId: delivery.endpointId, problem });
  };

  const round = async (): Promise<number> => {
    const now = clock.now();
    const due = await store.claimDue(now, BATCH, now + timeoutMs + LEASE_MARGIN_MS);
    await Promise.all(due.map(attempt));
    return due.length;
  };

  const schedule = (delayMs: number) => {
    if (stopped) return;
    timer = setTimeout(() => {
      round().then(
        (claimed) => schedule(claimed === BATCH ? 0 : pollMs),
        (error: unknown) => {
          // The storage may be unavailable for a while; the outbox keeps everything until it is back.
          // Once stopped, the storage closed under the attempts in progress: nothing to tell.
          if (!stopped) logger.warn({ event: 'webhook_worker_unavailable', reason: String(error) });
          schedule(pollMs);
        },
      );
    }, delayMs);
    // Pending webhooks keep no process alive that is otherwise done.
    timer.unref();
  };
  schedule(0);

  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
