// The cases of `Idempotency-Key` on a create, the same for every operation that takes it.
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { OperationId } from '../../../contract/contract.ts';
import { responseCase, statefulIt } from './cases.ts';
import { type ApiRequest, type ApiResponse, errorCode, expectStatus, send } from './client.ts';
import { target } from './target.ts';

/** Concurrent repeats per burst, and bursts at most, until one repeat arrives while the first is answered. */
const REPEATS = 10;
const BURSTS = 20;

/**
 * Registers the cases of `operationId` (served at `path`) with an `Idempotency-Key`: the replay,
 * the 409 and the 422. `newBody` makes a body the create accepts (creating what it needs first);
 * each call gives another one.
 */
export function idempotencyCases(operationId: OperationId, path: string, newBody: () => Promise<object>): void {
  const post = (json: unknown, key: string): ApiRequest => ({
    method: 'POST',
    path,
    json,
    headers: { 'Idempotency-Key': key },
  });

  statefulIt(`${operationId} replays its first answer to a repeat of the Idempotency-Key, creating once`, async () => {
    const key = randomUUID();
    const body = await newBody();
    const first = await send(operationId, post(body, key));
    expectStatus(post(body, key), first, 201);
    const again = await send(operationId, post(body, key));
    expectStatus(post(body, key), again, 201);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(again.headers.get('Location')).toBe(first.headers.get('Location'));
    expect(again.text).toBe(first.text);
  });

  responseCase(
    operationId,
    422,
    'idempotency_key_reused when the Idempotency-Key was sent with another body',
    async (call) => {
      const key = randomUUID();
      if (target.capabilities.stateful) {
        const first = post(await newBody(), key);
        expectStatus(first, await send(operationId, first), 201);
      }
      const response = await call({ path, json: await newBody(), headers: { 'Idempotency-Key': key } });
      expect(errorCode(response)).toBe('idempotency_key_reused');
    },
  );

  responseCase(
    operationId,
    409,
    'idempotency_key_in_progress, with Retry-After, to a repeat that arrives while the first is answered',
    async (call) => {
      if (target.capabilities.preferHeader) {
        const response = await call({ path, json: await newBody(), headers: { 'Idempotency-Key': randomUUID() } });
        expect(errorCode(response)).toBe('idempotency_key_in_progress');
        expect(Number(response.headers.get('Retry-After'))).toBeGreaterThanOrEqual(1);
        return;
      }
      // The repeats race the first; whichever way each goes, the key creates once.
      for (let burst = 0; burst < BURSTS; burst++) {
        const request = post(await newBody(), randomUUID());
        const answers: ApiResponse[] = await Promise.all(
          Array.from({ length: REPEATS }, () => send(operationId, request)),
        );
        expect(answers.map((answer) => answer.status).filter((status) => status !== 201 && status !== 409)).toEqual([]);
        const created = answers.filter((answer) => answer.status === 201);
        expect(new Set(created.map((answer) => answer.text)).size).toBeLessThanOrEqual(1);
        const inProgress = answers.find((answer) => answer.status === 409);
        if (inProgress) {
          expect(errorCode(inProgress)).toBe('idempotency_key_in_progress');
          expect(Number(inProgress.headers.get('Retry-After'))).toBeGreaterThanOrEqual(1);
          return;
        }
      }
      throw new Error(
        `In ${BURSTS} bursts of ${REPEATS} concurrent repeats, none arrived while the first was answered.`,
      );
    },
  );
}
