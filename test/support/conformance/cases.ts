import { it } from 'vitest';
import type { OperationId } from '../../../contract/contract.ts';
import { type ApiRequest, type ApiResponse, expectStatus, methodOf, send } from './client.ts';
import { type Endpoint, target } from './target.ts';

/** The declared response a `responseCase` is the case for. */
export interface ResponseCaseMeta {
  operationId: OperationId;
  status: number;
}

declare module 'vitest' {
  interface TaskMeta {
    /** Set on every test `responseCase` registers, so the coverage test finds the cases as vitest collects them. */
    responseCase?: ResponseCaseMeta;
  }
}

/** A request to the case's operation; its method is the operation's unless given. */
type CaseRequest = Omit<ApiRequest, 'method' | 'prefer'> & { method?: string; example?: string };

/** Sends a request that must get the case's status, and returns the (already checked) response. */
export type Call = (request: CaseRequest, endpoint?: Endpoint) => Promise<ApiResponse>;

/**
 * What a test checks on this target. A target that computes its answers shows `behaviour`. The
 * mock is told which status to answer (`Prefer: code=...`), so there a test shows only that the
 * contract's declared answer for that status (its example, its headers) looks as `declared` says.
 */
export function onTarget(behaviour: string, declared: string): string {
  return target.capabilities.preferHeader ? declared : behaviour;
}

/**
 * A case for one declared response of one operation: `call` asks a mock for that status (and
 * for `example`, a named example of the contract, when the case is about one of several), and
 * fails unless the target answers with it.
 */
export function responseCase(
  operationId: OperationId,
  status: number,
  behaviour: string,
  run: (call: Call) => Promise<void>,
  needs: { state?: boolean } = {},
): void {
  const call: Call = async ({ example, ...request }, endpoint) => {
    const full: ApiRequest = {
      method: methodOf(operationId),
      ...request,
      prefer: { code: status, ...(example ? { example } : {}) },
    };
    const response = await send(operationId, full, endpoint);
    expectStatus(full, response, status);
    return response;
  };
  const title = onTarget(
    `${operationId} answers ${status} ${behaviour}`,
    `${operationId}: the declared ${status} answer, served for Prefer: code=${status}, fits "${behaviour}"`,
  );
  it.skipIf(needs.state === true && !target.capabilities.stateful)(
    title,
    { meta: { responseCase: { operationId, status } } },
    () => run(call),
  );
}

/** A test that needs a target keeping state (the real server, directly or behind the proxy). */
export const statefulIt = it.skipIf(!target.capabilities.stateful);
