import type { Handler } from '../../core/http-types.ts';
import { type ReadinessProbes, readiness } from '../readiness.ts';

/** Until a backing service answers again; the probes run on every request, so a short wait is right. */
const RETRY_AFTER_SECONDS = '5';

export function getHealth(): Handler<'getHealth'> {
  return async (c) => c.json({ status: 'alive' }, 200);
}

export function getReadiness(probes: ReadinessProbes): Handler<'getReadiness'> {
  return async (c) => {
    const state = await readiness(probes);
    if (state.status === 'ready') return c.json(state, 200);
    return c.json(state, 503, { 'Retry-After': RETRY_AFTER_SECONDS });
  };
}
