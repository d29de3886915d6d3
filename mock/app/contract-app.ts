// The app core serving every operation of the contract on one set of the mock's data: a
// collection's operations through the collection layer, any other operation with its declared
// success answer; where a scenario, a fault or the request names a response, that response.
import { sha256 } from '@noble/hashes/sha2.js';
import type { Hono } from 'hono';
import type { Contract } from '../../contract/contract.ts';
import { type AppDeps, createApp, type OperationHandlers } from '../../core/app.ts';
import { systemClock } from '../../core/clock.ts';
import { collectionHandler, type RouteHandler } from '../../core/collections/handlers.ts';
import type { AppEnv } from '../../core/http-types.ts';
import type { Logger } from '../../core/logger.ts';
import type { CorsExtras } from '../../core/middleware/cors.ts';
import type { CursorCodec } from '../../core/pagination/cursor.ts';
import type { MockKeysAndLimits } from './access.ts';
import { answerChosen } from './chosen-answer.ts';
import { type DeclaredAnswers, declaredSuccess } from './declared-answers.ts';
import type { MockData } from './stores.ts';

export interface ContractAppOptions {
  contract: Contract;
  data: MockData;
  /** One codec for every set of data, so a cursor stays valid when the scenario changes. */
  cursors: CursorCodec;
  access: MockKeysAndLimits;
  answers: DeclaredAnswers;
  corsOrigins: NonNullable<AppDeps['corsOrigins']>;
  cors: CorsExtras;
  logger: Logger;
}

export function contractApp(options: ContractAppOptions): Hono<AppEnv> {
  const { contract, data, access } = options;
  // Like Prism, a mock makes up a required field the create does not carry (a status the service sets).
  // A mock knows no key lines: an owned collection's items are the one line's.
  const collections = {
    contract,
    cursors: options.cursors,
    stores: data.stores,
    fillsUnsentFields: true,
    oneOwner: true,
  };
  const handlers: Record<string, RouteHandler> = {};
  for (const operation of contract.operations) {
    handlers[operation.operationId] =
      collectionHandler(collections, operation.operationId) ?? declaredSuccess(operation);
  }
  return createApp({
    contract,
    handlers: handlers satisfies OperationHandlers,
    keys: access.keys,
    limiters: access.limiters,
    clock: systemClock,
    logger: options.logger,
    corsOrigins: options.corsOrigins,
    corsExtras: options.cors,
    idempotency: data.idempotency && { store: data.idempotency, sha256: (message) => sha256(message) },
    // Requests without a key are counted by address; a mock on a developer's machine has one.
    clientAddress: () => 'local',
    beforeHandler: (operation) => answerChosen(operation, options.answers),
  });
}
