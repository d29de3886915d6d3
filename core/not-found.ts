import type { NotFoundHandler } from 'hono';
import { errors } from './errors.ts';
import type { AppEnv } from './http-types.ts';

export const answerNotFound: NotFoundHandler<AppEnv> = (c) => {
  const { body, status } = errors.pathNotFound(c.req.path);
  return c.json(body, status);
};
