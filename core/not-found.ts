import type { NotFoundHandler } from 'hono';
import { errorBody } from './errors.ts';
import type { AppEnv } from './http-types.ts';

export const answerNotFound: NotFoundHandler<AppEnv> = (c) =>
  c.json(errorBody(404, 'not_found', `There is no resource at ${c.req.path}.`), 404);
