// Nothing acknowledged is lost: every pet a server answered 201 for reaches the subscribed
// endpoint, though the server is killed with SIGKILL in the middle of a burst of creates, on
// SQLite (the next start delivers what was left) and with two instances on PostgreSQL (the other
// instance does); and no event arrives for a pet that was not stored.
import { join } from 'node:path';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { openPostgresStorage } from '../../../server/storage/postgres/storage.ts';
import { openDatabase } from '../../../server/storage/sqlite/database.ts';
import { SqliteKeyStore } from '../../../server/storage/sqlite/key-store.ts';
import { createTestDatabase, postgresReachable } from '../../../support/backing-services.ts';
import { defined } from '../../support/defined.ts';
import { type ServerProcess, startServerProcess } from '../../support/server-process.ts';
import { useTempDirs } from '../../support/temp-dir.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/webhook-receiver.ts';

const tempDir = useTempDirs();
const CLIENTS = 20;
const ACKNOWLEDGED_BEFORE_KILL = 150;
const postgresAvailable = await postgresReachable();

async function server(env: Record<string, string>): Promise<ServerProcess> {
  const started = await startServerProcess({ WEBHOOKS_ALLOW_PRIVATE: '1', ...env });
  onTestFinished(async () => {
    if (started.child.exitCode === null && started.child.signalCode === null) {
      started.child.kill('SIGKILL');
      await started.exited;
    }
  });
  return started;
}

async function receiver(): Promise<WebhookReceiver> {
  const started = await startWebhookReceiver();
  onTestFinished(() => started.close());
  return started;
}

const headersOf = (key: string) => ({ Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' });

async function subscribe(baseUrl: string, key: string, url: string): Promise<void> {
  const response = await fetch(`${baseUrl}/v1/webhook-endpoints`, {
    method: 'POST',
    headers: headersOf(key),
    body: JSON.stringify({ url, events: ['pet.created'] }),
  });
  expect(response.status).toBe(201);
}

/**
 * Creates pets from CLIENTS concurrent clients spread over `baseUrls` until `victim` has
 * acknowledged ACKNOWLEDGED_BEFORE_KILL of them, then kills it with SIGKILL mid-burst. Resolves
 * with the ids of every pet answered 201, by any server.
 */
async function burstThenKill(baseUrls: string[], key: string, victim: ServerProcess): Promise<number[]> {
  const acknowledged: number[] = [];
  let acknowledgedByVictim = 0;
  let killed = false;
  const client = async (index: number) => {
    for (let sent = 0; !killed; sent += 1) {
      const baseUrl = defined(baseUrls[(index + sent) % baseUrls.length], 'a server');
      const response = await fetch(`${baseUrl}/v1/pets`, {
        method: 'POST',
        headers: headersOf(key),
        body: JSON.stringify({ name: `Pet ${index}-${sent}`, categoryId: 1 }),
      }).catch(() => undefined);
      // A request the victim never answered was not acknowledged.
      if (response?.status !== 201) continue;
      acknowledged.push(((await response.json()) as { id: number }).id);
      if (baseUrl === victim.baseUrl && ++acknowledgedByVictim === ACKNOWLEDGED_BEFORE_KILL && !killed) {
        killed = true;
        victim.child.kill('SIGKILL');
      }
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, (_, index) => client(index)));
  expect((await victim.exited).signal).toBe('SIGKILL');
  expect(acknowledged.length).toBeGreaterThanOrEqual(ACKNOWLEDGED_BEFORE_KILL);
  return acknowledged;
}

const receivedPetIds = (hooks: WebhookReceiver) =>
  new Set(hooks.received.map(({ body }) => (JSON.parse(body) as { data: { id: number } }).data.id));

describe('pet.created across a SIGKILL mid-burst', { timeout: 120_000 }, () => {
  it('reaches the endpoint for every pet acknowledged on SQLite, delivered by the next start', async () => {
    const path = join(tempDir(), 'events.db');
    const setup = openDatabase(path);
    const { secret } = await new SqliteKeyStore(setup).create({ plan: 'enterprise', perMinute: 1e6, perDay: 1e6 });
    setup.close();
    const hooks = await receiver();
    const first = await server({ DATABASE_PATH: path });
    await subscribe(first.baseUrl, secret, hooks.url);
    const acknowledged = await burstThenKill([first.baseUrl], secret, first);

    await server({ DATABASE_PATH: path });
    await vi.waitFor(
      () => {
        const received = receivedPetIds(hooks);
        expect(acknowledged.filter((id) => !received.has(id))).toEqual([]);
      },
      { timeout: 60_000, interval: 200 },
    );
    // At least once, never for a pet that was not stored.
    const db = openDatabase(path);
    const stored = new Set(db.prepare('SELECT id FROM pets').pluck().all() as number[]);
    db.close();
    expect([...receivedPetIds(hooks)].filter((id) => !stored.has(id))).toEqual([]);
  });

  it.skipIf(!postgresAvailable)(
    'reaches the endpoint for every pet acknowledged by either of two instances on PostgreSQL, one killed',
    async () => {
      const database = await createTestDatabase();
      onTestFinished(() => database.drop());
      const env = { DATABASE_URL: database.url };
      const [one, two] = await Promise.all([server(env), server(env)]);
      const storage = await openPostgresStorage(database.url);
      onTestFinished(() => storage.close());
      const { secret } = await storage.keys.create({ plan: 'enterprise', perMinute: 1e6, perDay: 1e6 });
      const hooks = await receiver();
      await subscribe(one.baseUrl, secret, hooks.url);
      const acknowledged = await burstThenKill([one.baseUrl, two.baseUrl], secret, one);

      await vi.waitFor(
        () => {
          const received = receivedPetIds(hooks);
          expect(acknowledged.filter((id) => !received.has(id))).toEqual([]);
        },
        { timeout: 60_000, interval: 200 },
      );
      const stored = new Set((await storage.collections('pets').list({ limit: 100_000 })).items.map((pet) => pet.id));
      expect([...receivedPetIds(hooks)].filter((id) => !stored.has(id))).toEqual([]);
    },
  );
});
