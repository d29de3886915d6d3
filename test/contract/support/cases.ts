import { it } from 'vitest';
import type { OperationId } from '../../../server/contract.ts';
import { expectStatus, methodOf, send, type ApiRequest, type ApiResponse } from './client.ts';
import { target, type Endpoint } from './target.ts';

/** A request to the case's operation; its method is the operation's unless given. */
export type CaseRequest = Omit<ApiRequest, 'method' | 'prefer'> & { method?: string; example?: string };

/** Sends a request that must get the case's status, and returns the (already checked) response. */
export type Call = (request: CaseRequest, endpoint?: Endpoint) => Promise<ApiResponse>;

/**
 * A case for one declared response of one operation: `call` asks a mock for that status (and
 * for `example`, a named example of the contract, when the case is about one of several), and
 * fails unless the target answers with it. The coverage test reads these declarations, as
 * written here, to prove every declared response of the contract has a case.
 */
export function responseCase(
  operationId: OperationId,
  status: number,
  behaviour: string,
  run: (call: Call) => Promise<void>,
  needs: { state?: boolean } = {},
): void {
  const call: Call = async ({ example, ...request }, endpoint) => {
    const full: ApiRequest = { method: methodOf(operationId), ...request, prefer: { code: status, ...(example ? { example } : {}) } };
    const response = await send(operationId, full, endpoint);
    expectStatus(full, response, status);
    return response;
  };
  it.skipIf(needs.state === true && !target.capabilities.stateful)(`${operationId} answers ${status} ${behaviour}`, () => run(call));
}

/** A test that needs a target keeping state (the real server, directly or behind the proxy). */
export const statefulIt = it.skipIf(!target.capabilities.stateful);
