// What `GET /readyz` asks: does each backing service answer, and is the instance still taking
// requests. A probe that takes longer than a load balancer would wait counts as not answering.
import type { components } from '../../generated/openapi.ts';

export type Readiness = components['schemas']['Readiness'];

export interface ReadinessProbes {
  /** Resolves when the storage answers a query. */
  storage(): Promise<void>;
  /** Resolves when the rate limiter's store answers. */
  limiter(): Promise<void>;
  /** Whether the instance has been asked to stop (it then fails readiness first, then stops). */
  stopping(): boolean;
}

const PROBE_TIMEOUT_MS = 1_000;

export async function readiness(probes: ReadinessProbes): Promise<Readiness> {
  const [storage, limiter] = await Promise.all([answers(probes.storage), answers(probes.limiter)]);
  const checks = { storage, limiter } as const;
  if (probes.stopping()) return { status: 'stopping', checks };
  return { status: storage === 'ok' && limiter === 'ok' ? 'ready' : 'unavailable', checks };
}

async function answers(probe: () => Promise<void>): Promise<'ok' | 'unavailable'> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'unavailable'>((resolve) => {
    timer = setTimeout(() => resolve('unavailable'), PROBE_TIMEOUT_MS);
  });
  try {
    return await Promise.race([
      probe().then(
        () => 'ok' as const,
        () => 'unavailable' as const,
      ),
      timedOut,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
