import type { Handler } from '../../../core/http-types.ts';
import { UNAVAILABLE_RETRY_AFTER_SECONDS } from '../../../generated/rules.ts';
import { type ReadinessProbes, readiness } from '../readiness.ts';

export function getHealth(): Handler<'getHealth'> {
  return async (c) => c.json({ status: 'alive' }, 200);
}

export function getReadiness(probes: ReadinessProbes): Handler<'getReadiness'> {
  return async (c) => {
    const state = await readiness(probes);
    if (state.status === 'ready') return c.json(state, 200);
    return c.json(state, 503, { 'Retry-After': String(UNAVAILABLE_RETRY_AFTER_SECONDS) });
  };
}
