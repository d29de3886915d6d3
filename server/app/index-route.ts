// `GET /`: what answers at this origin and where to go next, for a person or a tool that lands on
// it. Like the docs, it is no API operation: the service mounts it with the docs, before rate limiting and
// authentication, so it needs no key and counts against no window.
import { Hono } from 'hono';
import type { Contract } from '../../contract/contract.ts';
import type { AppEnv } from '../../core/http-types.ts';

export function indexRoute(contract: Contract): Hono<AppEnv> {
  const index = {
    name: contract.document.info.title,
    version: contract.document.info.version,
    api: contract.basePath,
    // Served by docsRoutes.
    docs: '/docs/',
    openapi: '/openapi.json',
  };
  const routes = new Hono<AppEnv>();
  routes.get('/', (c) => c.json(index));
  return routes;
}
