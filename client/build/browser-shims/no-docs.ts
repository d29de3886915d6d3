// `server/docs.ts` in the browser build: the docs page and the contract files it serves are read
// from disk, and the browser mocks answer the API's operations only.
import { Hono } from 'hono';
import type { AppEnv } from '../../../core/http-types.ts';

export function docsRoutes(): Hono<AppEnv> {
  return new Hono<AppEnv>();
}
