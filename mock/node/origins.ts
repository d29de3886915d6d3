// Which browser origins may call the mocks. A frontend's dev server runs on some port of
// localhost, so that is allowed by default; `CORS_ORIGINS` replaces it with a list.

import type { CorsOrigins } from '../../core/middleware/cors.ts';
import { corsOriginsOf } from '../../server/process/config.ts';

export type MockOrigins = CorsOrigins;

const LOCAL_ORIGIN = /^https?:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d{1,5})?$/;

/** Any origin on localhost, 127.0.0.1 or [::1], at any port. */
export const localOrigins: MockOrigins = (origin) => LOCAL_ORIGIN.test(origin);

/** `CORS_ORIGINS` when set (comma-separated), else localOrigins; and how to say it in a banner. */
export function mockOrigins(env: NodeJS.ProcessEnv): { origins: MockOrigins; described: string } {
  const listed = corsOriginsOf(env);
  if (listed.length === 0)
    return {
      origins: localOrigins,
      described: 'any http://localhost or http://127.0.0.1 origin (set CORS_ORIGINS to change)',
    };
  return { origins: listed, described: `${listed.join(', ')} (from CORS_ORIGINS)` };
}
