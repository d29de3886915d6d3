import type { NotFoundHandler } from 'hono';
import { errors } from './errors.ts';
import type { AppEnv } from './http-types.ts';
import { answerJson } from './middleware/answer-headers.ts';

export const answerNotFound: NotFoundHandler<AppEnv> = (c) => {
  const { body, status } = errors.pathNotFound(c.req.path);
  return answerJson(c, body, status);
};
