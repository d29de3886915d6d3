// What the cases of an update (a merge patch of one item) read from the contract: the media type
// its body is sent as, and the transitions of a status, so the suite states neither.

import { loadContract } from '../../../contract/bundled.ts';
import type { OperationId } from '../../../contract/contract.ts';
import { componentSchema } from '../contract-document.ts';
import { defined } from '../defined.ts';
import type { ApiRequest } from './client.ts';

/** A `PATCH` of `path` with `json`, sent as the media type the operation declares. */
export function patchRequest(
  operationId: OperationId,
  path: string,
  json: unknown,
  headers: Record<string, string> = {},
): ApiRequest {
  const mediaType = defined(loadContract().operation(operationId).bodyMediaType, `${operationId}'s body media type`);
  return { method: 'PATCH', path, json, headers: { 'Content-Type': mediaType, ...headers } };
}

export interface Transitions {
  /** Every state, in the enum's order. */
  states: string[];
  /** From each state, the states an update may change it to (`x-transitions`). */
  next: Record<string, string[]>;
}

/** The states of the status schema `name` and its `x-transitions`. */
export function transitionsOf(name: string): Transitions {
  const schema = componentSchema(name) as { enum?: string[]; 'x-transitions'?: Record<string, string[]> };
  return {
    states: defined(schema.enum, `the enum of ${name}`),
    next: defined(schema['x-transitions'], `the x-transitions of ${name}`),
  };
}

/** Every (from, to) pair of two different states, each with whether the transitions allow it. */
export function statePairs({ states, next }: Transitions): Array<{ from: string; to: string; allowed: boolean }> {
  return states.flatMap((from) =>
    states.filter((to) => to !== from).map((to) => ({ from, to, allowed: (next[from] ?? []).includes(to) })),
  );
}

/** The shortest series of allowed changes from `from` to `to` (empty when they are the same); undefined when none leads there. */
export function stepsBetween({ next }: Transitions, from: string, to: string): string[] | undefined {
  const reached = new Map<string, string[]>([[from, []]]);
  const queue = [from];
  for (let state = queue.shift(); state !== undefined; state = queue.shift()) {
    const steps = reached.get(state) ?? [];
    if (state === to) return steps;
    for (const following of next[state] ?? []) {
      if (reached.has(following)) continue;
      reached.set(following, [...steps, following]);
      queue.push(following);
    }
  }
  return undefined;
}
