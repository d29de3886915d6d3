import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Pet } from '../../../generated/openapi.ts';
import { openDatabase } from '../../../server/storage/sqlite/database.ts';
import { integrityProblems } from '../../../server/storage/sqlite/integrity.ts';
import { SqliteKeyStore } from '../../../server/storage/sqlite/key-store.ts';
import { defined } from '../../support/defined.ts';
import { type ServerProcess, startServerProcess } from '../../support/server-process.ts';

const REQUESTS = 200;
const SHUTDOWN_TIMEOUT_MS = 5_000;
/** Time for the process to close the database and exit once its connections are done. */
const EXIT_MARGIN_MS = 3_000;
/** What a client may see when it connects after the server stopped accepting: no answer was begun. */
const REFUSED = ['ECONNREFUSED', 'ECONNRESET', 'EPIPE'];

interface Outcome {
  method: 'GET' | 'POST';
  /** Set once the status line arrived. */
  status?: number;
  headers?: Record<string, string | string[] | undefined>;
  body?: string;
  /** Whether the body announced by the response arrived whole. */
  complete?: boolean;
  error?: string;
  answeredAt?: number;
}

let dir: string;
let server: ServerProcess | undefined;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'animal-store-shutdown-'));
});

afterEach(() => {
  if (server && server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
  server = undefined;
  rmSync(dir, { recursive: true, force: true });
});

async function enterpriseKey(databasePath: string): Promise<string> {
  const db = openDatabase(databasePath);
  try {
    const { secret } = await new SqliteKeyStore(db).create({
      plan: 'enterprise',
      perMinute: 1_000_000,
      perDay: 1_000_000,
    });
    return secret;
  } finally {
    db.close();
  }
}

/** One request on its own connection, so that a refused connection cannot be mistaken for a cut answer. */
function send(baseUrl: string, key: string, index: number): Promise<Outcome> {
  const method = index % 2 === 0 ? 'POST' : 'GET';
  const body = method === 'POST' ? JSON.stringify({ name: `Load ${index}`, categoryId: 1 + (index % 5) }) : undefined;
  const headers: Record<string, string> = { Authorization: `Bearer ${key}` };
  if (body) headers['Content-Type'] = 'application/json';
  return new Promise((resolve) => {
    const outcome: Outcome = { method };
    const sent = request(
      new URL(method === 'POST' ? '/v1/pets' : '/v1/pets?limit=5', baseUrl),
      { method, headers, agent: false },
      (response) => {
        outcome.status = response.statusCode;
        outcome.headers = response.headers;
        let text = '';
        response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        response.on('end', () => {
          Object.assign(outcome, { body: text, complete: response.complete, answeredAt: performance.now() });
          resolve(outcome);
        });
        response.on('error', (error: NodeJS.ErrnoException) =>
          resolve(Object.assign(outcome, { body: text, complete: false, error: error.code ?? error.message })),
        );
      },
    );
    sent.on('error', (error: NodeJS.ErrnoException) => {
      if (outcome.status === undefined) resolve(Object.assign(outcome, { error: error.code ?? error.message }));
    });
    sent.end(body);
  });
}

describe('graceful shutdown of server/process/main.ts under load', () => {
  it('answers every request it accepted in full, keeps every pet it acknowledged, and exits 0 within its timeout', {
    timeout: 60_000,
  }, async () => {
    const databasePath = join(dir, 'store.db');
    const key = await enterpriseKey(databasePath);
    server = await startServerProcess({
      DATABASE_PATH: databasePath,
      LOG_LEVEL: 'info',
      SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
    });
    const running = server;

    let answered = 0;
    let signalledAt = Infinity;
    const outcomes = await Promise.all(
      Array.from({ length: REQUESTS }, (_, index) =>
        send(running.baseUrl, key, index).then((outcome) => {
          answered += outcome.status === undefined ? 0 : 1;
          if (answered === 10 && signalledAt === Infinity) {
            signalledAt = performance.now();
            running.child.kill('SIGTERM');
          }
          return outcome;
        }),
      ),
    );
    const exit = await Promise.race([
      running.exited,
      new Promise((resolve) => setTimeout(() => resolve('still running'), SHUTDOWN_TIMEOUT_MS + EXIT_MARGIN_MS)),
    ]);

    expect(exit).toEqual({ code: 0, signal: null });
    const started = outcomes.filter((outcome) => outcome.status !== undefined);
    // Every answer begun arrived whole and well-formed: no reset in the middle of an answer.
    for (const outcome of started) {
      expect(outcome).toMatchObject({ complete: true, status: outcome.method === 'POST' ? 201 : 200 });
      expect(outcome.error).toBeUndefined();
      const body = defined(outcome.body, `the body of a ${outcome.method} answer`);
      expect(Buffer.byteLength(body)).toBe(Number(outcome.headers?.['content-length']));
      expect(() => JSON.parse(body)).not.toThrow();
    }
    // The rest were refused when they connected, after the server stopped accepting.
    for (const outcome of outcomes.filter((outcome) => outcome.status === undefined))
      expect(REFUSED).toContain(outcome.error);
    // Requests in flight when the signal came were finished, not dropped.
    expect(started.filter((outcome) => (outcome.answeredAt ?? -Infinity) > signalledAt).length).toBeGreaterThan(0);
    // Every request the server logged as answered reached its client.
    const received = new Set(started.map((outcome) => outcome.headers?.['x-request-id']));
    const logged = running
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => (JSON.parse(line) as { requestId?: string }).requestId);
    expect(logged.filter((requestId) => requestId !== undefined && !received.has(requestId))).toEqual([]);

    const db = new Sqlite(databasePath, { readonly: true });
    try {
      const stored = db.prepare<[number], Pet>(
        'SELECT id, name, category_id AS categoryId, status FROM pets WHERE id = ?',
      );
      for (const outcome of started.filter((outcome) => outcome.status === 201)) {
        const pet = JSON.parse(defined(outcome.body, 'the body of a 201')) as Pet;
        expect(stored.get(pet.id)).toEqual(pet);
      }
      expect(integrityProblems(db, 'full')).toEqual([]);
    } finally {
      db.close();
    }
  });
});
