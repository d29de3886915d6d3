// What a Redis restart does to the bans it holds: kept when Redis persists its data (AOF), which
// the README tells an operator to configure, forgotten when it does not. Each test runs its own
// redis-server, on a port and in a folder of its own, and restarts it.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { UnavailableError } from '../../../core/errors.ts';
import type { RateDecision } from '../../../core/limiter/rate-limiter.ts';
import { connectRedis, createRedisRateLimiter } from '../../../server/limiter/redis-rate-limiter.ts';
import { fakeClock, provokeBan, SMALL_LIMITS, TEST_BAN } from '../../support/limiter-fixtures.ts';

const installed = !spawnSync('redis-server', ['--version']).error;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.once('error', reject);
  });
}

/** A redis-server of the test's own, which it can stop and start again on the same data folder. */
async function ownRedis(persistence: string[]) {
  const dir = mkdtempSync(join(tmpdir(), 'animal-store-redis-'));
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, ...persistence], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout?.setEncoding('utf8');
    await new Promise<void>((resolve, reject) => {
      child?.stdout?.on('data', (chunk: string) => {
        output += chunk;
        if (/Ready to accept connections/.test(output)) resolve();
      });
      child?.once('exit', (code) => reject(new Error(`redis-server exited with ${code}: ${output}`)));
    });
  };
  /** SIGTERM: Redis shuts down as on `systemctl restart`, writing what its configuration says to keep. */
  const stop = async () => {
    const exited = once(child as ChildProcess, 'exit');
    child?.kill('SIGTERM');
    await exited;
  };
  onTestFinished(async () => {
    if (child?.exitCode === null) await stop();
    rmSync(dir, { recursive: true, force: true });
  });
  await start();
  return { url: `redis://127.0.0.1:${port}`, start, stop };
}

/** Asks until the limiter decides again: its connection comes back by itself once Redis does. */
async function decisionAfterRestart(hit: () => Promise<RateDecision>): Promise<RateDecision> {
  let decision: RateDecision | undefined;
  await expect
    .poll(
      async () => {
        try {
          decision = await hit();
          return true;
        } catch (error) {
          if (error instanceof UnavailableError) return false;
          throw error;
        }
      },
      { timeout: 10_000 },
    )
    .toBe(true);
  return decision as RateDecision;
}

describe.skipIf(!installed)('redis limiter: a restart of Redis', () => {
  it.each<[string, string[], RateDecision['outcome']]>([
    [
      'with append-only persistence keeps the ban',
      ['--appendonly', 'yes', '--appendfsync', 'always', '--save', ''],
      'key_banned',
    ],
    ['without persistence forgets the ban, and the windows with it', ['--appendonly', 'no', '--save', ''], 'allowed'],
  ])('%s', async (_case, persistence, outcome) => {
    const redis = await ownRedis(persistence);
    const connection = connectRedis(redis.url);
    onTestFinished(() => connection.disconnect());
    await once(connection, 'ready');
    const limiter = createRedisRateLimiter({
      redis: connection,
      prefix: 'test:',
      ban: TEST_BAN,
      clock: fakeClock(),
    });
    expect(await provokeBan(limiter, 'key:1', SMALL_LIMITS, TEST_BAN)).toMatchObject({ outcome: 'key_banned' });

    await redis.stop();
    await redis.start();

    expect(await decisionAfterRestart(() => limiter.hit('key:1', SMALL_LIMITS))).toMatchObject({ outcome });
  });
});
