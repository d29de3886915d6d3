// The steps between the bare app and the full stack: the bare app plus the service's pieces, one
// more per step, each the server's own code. `FLOOR_STEP` says how many to add (see FLOOR_STEPS).

import { createHmac } from 'node:crypto';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { loadContract } from '../../contract/bundled.ts';
import { rateLimitRules } from '../../contract/rate-limit-rules.ts';
import { requestValidator } from '../../contract/request-validator.ts';
import { systemClock } from '../../core/clock.ts';
import { collectionHandler } from '../../core/collections/handlers.ts';
import { errors } from '../../core/errors.ts';
import type { AppEnv } from '../../core/http-types.ts';
import { createLogger } from '../../core/logger.ts';
import { accessLog } from '../../core/middleware/access-log.ts';
import { identifyCaller } from '../../core/middleware/identify-caller.ts';
import { rateLimit } from '../../core/middleware/rate-limit.ts';
import { requestId } from '../../core/middleware/request-id.ts';
import { createCursorCodec } from '../../core/pagination/cursor.ts';
import { traceContext } from '../../core/trace-context.ts';
import { batchedStdout } from '../../node/batched-stdout.ts';
import { openService } from '../../server/service.ts';
import { FLOOR_STEPS } from '../support.ts';

const step = Number(process.env.FLOOR_STEP);
const body = process.env.BENCH_BODY ?? '[]';
const answerHeaders: Record<string, string> = JSON.parse(process.env.BENCH_HEADERS ?? '{}');
const stdout = batchedStdout();
const logger = createLogger('info', stdout);
const clientAddress = () => '127.0.0.1';
const databasePath = process.env.DATABASE_PATH;
if (databasePath === undefined) throw new Error('bench/servers/floor.ts needs DATABASE_PATH, the database to serve.');
const service = await openService({ storage: { engine: 'sqlite', path: databasePath }, logger, clientAddress });

let app: Hono<AppEnv> = service.app;
if (step < FLOOR_STEPS.length - 1) {
  app = new Hono<AppEnv>();
  if (step >= 1) {
    app.use(requestId(), traceContext());
    delete answerHeaders['x-request-id'];
  }
  if (step >= 2) app.use(accessLog(logger, clientAddress));
  if (step >= 3) {
    const rules = rateLimitRules(loadContract().document);
    app.use(
      identifyCaller(service.storage.keys),
      rateLimit({ limiters: service.limiters, clientAddress, rules, clock: systemClock }),
    );
    for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) delete answerHeaders[name];
  }
  if (step >= 4) {
    const contract = loadContract();
    const validator = requestValidator(contract);
    const cursors = createCursorCodec(new Uint8Array(32), (key, message) =>
      createHmac('sha256', key).update(message).digest(),
    );
    const listPets = collectionHandler({ contract, stores: service.storage.collections, cursors }, 'listPets');
    if (!listPets) throw new Error('listPets serves no collection of the contract.');
    app.get('/v1/pets', (c) => {
      const validation = validator.validate('listPets', { query: c.req.queries(), path: {} });
      if (!validation.valid) throw errors.invalidRequest(validation.problems);
      return listPets(c, validation.input as never);
    });
  } else {
    app.get('/v1/pets', (c) => c.body(body, 200, answerHeaders));
  }
}

serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info) => {
  stdout(`listening on http://127.0.0.1:${info.port}/v1\n`);
});
