// `/__mock/*`: the scenario in force, the scenarios known, and a reset. No key needed.
import { Hono } from 'hono';
import type { Contract } from '../../contract/contract.ts';
import { answerErrors } from '../../core/answer-errors.ts';
import type { AppDeps } from '../../core/app.ts';
import { errors } from '../../core/errors.ts';
import type { AppEnv } from '../../core/http-types.ts';
import { readJsonBody } from '../../core/json-body.ts';
import type { Logger } from '../../core/logger.ts';
import { limitBodySize } from '../../core/middleware/body-size-limit.ts';
import { type CorsExtras, contractCors } from '../../core/middleware/cors.ts';
import { requireJsonContentType } from '../../core/middleware/json-content-type.ts';
import { servedMethods } from '../../core/middleware/method-not-allowed.ts';
import { answerNotFound } from '../../core/not-found.ts';
import type { MockSettings } from './request-choice.ts';
import type { MockWebhooks } from './webhooks.ts';

export interface AdminOptions {
  contract: Contract;
  settings: MockSettings;
  corsOrigins: NonNullable<AppDeps['corsOrigins']>;
  cors: CorsExtras;
  logger: Logger;
  /** What `POST /__mock/reset` does. */
  reset(): void;
  /** What `POST /__mock/events` sends; without it, the mock has no such endpoint. */
  webhooks?: Pick<MockWebhooks, 'sendExample'>;
}

export function adminRoutes({
  contract,
  settings,
  corsOrigins,
  cors,
  logger,
  reset,
  webhooks,
}: AdminOptions): Hono<AppEnv> {
  const admin = new Hono<AppEnv>();
  admin.use(contractCors(contract, corsOrigins, servedMethods(admin), cors));
  admin.get('/__mock/scenarios', (c) =>
    c.json(
      [...settings.scenarios.values()].map(({ name, description }) => ({ name, description })),
      200,
    ),
  );
  admin.get('/__mock/scenario', (c) => c.json({ name: settings.scenario }, 200));
  // JSON only: a web page can send a form or text/plain to any origin without asking (no
  // preflight), so a body of those types, or none, would let any page switch or reset the mock.
  const jsonOnly = requireJsonContentType();
  // The API's own limit, counted as received: a mock is no place to hold a body of any size.
  const bounded = limitBodySize(contract.largestBodyBytes);
  admin.put('/__mock/scenario', jsonOnly, bounded, async (c) => {
    const body = await readJsonBody(c);
    const name = (body as { name?: unknown } | null)?.name;
    const known = [...settings.scenarios.keys()].join(', ');
    if (typeof name !== 'string' || !settings.scenarios.has(name)) {
      const what =
        typeof name === 'string'
          ? `The scenario "${quoted(name)}" is unknown`
          : 'The body must be {"name": "<scenario>"}';
      throw errors.mockControl(`${what}; the mock knows ${known}.`);
    }
    settings.scenario = name;
    return c.body(null, 204);
  });
  admin.post('/__mock/reset', jsonOnly, bounded, async (c) => {
    reset();
    return c.body(null, 204);
  });
  // Sends the contract's example of an event type, signed, to the endpoints subscribed to it.
  if (webhooks)
    admin.post('/__mock/events', jsonOnly, bounded, async (c) => {
      const type = ((await readJsonBody(c)) as { type?: unknown } | null)?.type;
      if (typeof type !== 'string')
        throw errors.mockControl('The body must be {"type": "<event type>"}, e.g. "pet.created".');
      return c.json({ type, endpoints: await webhooks.sendExample(type) }, 200);
    });
  admin.notFound(answerNotFound);
  admin.onError(answerErrors(logger));
  return admin;
}

/** A name as an answer quotes it: enough to recognise, never the whole of a long one. */
function quoted(name: string): string {
  const codePoints = [...name];
  return codePoints.length > 100 ? `${codePoints.slice(0, 100).join('')}…` : name;
}
