// The variables issue 34 added to the server's one configuration: the metrics listener and the
// switch that refuses a start without Redis. (OpenTelemetry's are in test/server/telemetry/tracing.test.ts.)
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../core/errors.ts';
import { readConfig } from '../../../server/process/config.ts';

describe('readConfig: the metrics listener', () => {
  it.each([
    [{}, undefined],
    [{ METRICS_PORT: '9464' }, { host: '127.0.0.1', port: 9464 }],
    [
      { METRICS_PORT: '0', METRICS_HOST: '0.0.0.0' },
      { host: '0.0.0.0', port: 0 },
    ],
  ])('reads %o as %o', (env, metrics) => {
    expect(readConfig(env).metrics).toEqual(metrics);
  });

  it.each(['http', '-1', '65536', '94.64'])('refuses METRICS_PORT=%s, naming it', (value) => {
    expect(() => readConfig({ METRICS_PORT: value })).toThrow(
      new UsageError(`METRICS_PORT must be a whole number from 0 to 65535; got "${value}".`),
    );
  });
});

describe('readConfig: REDIS_REQUIRED', () => {
  it('requires Redis at start-up when set beside REDIS_URL', () => {
    expect(readConfig({ REDIS_URL: 'redis://127.0.0.1:6379', REDIS_REQUIRED: 'true' }).limiter).toMatchObject({
      engine: 'redis',
      required: true,
    });
    expect(readConfig({ REDIS_URL: 'redis://127.0.0.1:6379' }).limiter).toMatchObject({ required: false });
  });

  it('refuses REDIS_REQUIRED without REDIS_URL, saying what to set', () => {
    expect(() => readConfig({ REDIS_REQUIRED: 'true' })).toThrow(/REDIS_REQUIRED is set, but REDIS_URL is not/);
  });
});
