// The mocks' configuration: every variable `npm run mock` and `npm run mock:stateful` read, read
// and checked once when they start; a value that cannot work is a UsageError naming the variable.
import { LOG_LEVELS, type LogLevel } from '../../core/logger.ts';
import type { CorsOrigins } from '../../core/middleware/cors.ts';
import { type Environment, variables } from '../../node/variables.ts';

const DEFAULT_MOCK_PORT = 4010;

const LOCAL_ORIGIN = /^https?:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d{1,5})?$/;

/** Any origin on localhost, 127.0.0.1 or [::1], at any port: where a frontend's dev server runs. */
export const localOrigins: CorsOrigins = (origin) => LOCAL_ORIGIN.test(origin);

export interface MockConfig {
  /** `MOCK_PORT`, 4010 by default (0: any free port). */
  port: number;
  /** Origins a browser may call the mock from: `CORS_ORIGINS`, or any on this machine; and how to say it in a banner. */
  origins: { allowed: CorsOrigins; described: string };
  /** `MOCK_ALLOWED_HOSTS`: host names the mock answers besides loopback ones. */
  allowedHosts: string[];
  /** `LOG_LEVEL`, `warn` by default: the mock logs what goes wrong, not each request. */
  logLevel: LogLevel;
}

export function readMockConfig(env: Environment): MockConfig {
  const read = variables(env);
  const listed = read.list('CORS_ORIGINS');
  return {
    port: read.integer('MOCK_PORT', DEFAULT_MOCK_PORT, 0, 65535),
    origins:
      listed.length === 0
        ? {
            allowed: localOrigins,
            described: 'any http://localhost or http://127.0.0.1 origin (set CORS_ORIGINS to change)',
          }
        : { allowed: listed, described: `${listed.join(', ')} (from CORS_ORIGINS)` },
    allowedHosts: read.list('MOCK_ALLOWED_HOSTS').map((host) => host.toLowerCase()),
    logLevel: read.oneOf('LOG_LEVEL', LOG_LEVELS, 'warn'),
  };
}
