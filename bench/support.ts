// What the API benchmarks share: the database they serve, starting a server process, the load.

import { type ChildProcess, spawn } from 'node:child_process';
import autocannon from 'autocannon';
import { openDatabase } from '../server/database.ts';
import { SqliteKeyStore } from '../server/keys/sqlite-key-store.ts';
import { SqlitePetStore } from '../server/store/sqlite-pet-store.ts';

export const CONNECTIONS = 50;
export const PATH = '/v1/pets?limit=20';

/** The steps of `npm run bench:floor`: bench/servers/floor.ts with `FLOOR_STEP` = the index. */
export const FLOOR_STEPS = [
  'bare Hono, constant answer',
  '+ request id (hono/request-id)',
  '+ access log line',
  '+ key lookup and rate limit',
  '+ handler: validation, page, cursor, JSON',
  'full stack (createApp)',
] as const;

/** 100 pets and an enterprise key whose limits the load cannot reach; returns the key. */
export async function seed(path: string): Promise<string> {
  const db = openDatabase(path);
  const pets = new SqlitePetStore(db);
  for (let index = 1; index <= 100; index += 1) {
    await pets.create({
      name: `Pet ${index}`,
      categoryId: (index % 7) + 1,
      status: index % 3 === 0 ? 'sold' : 'available',
    });
  }
  const { secret } = await new SqliteKeyStore(db).create({
    plan: 'enterprise',
    perMinute: 100_000_000,
    perDay: 1_000_000_000,
    label: 'bench',
  });
  db.close();
  return secret;
}

export async function start(
  entry: string,
  env: Record<string, string>,
  nodeOptions: string[] = [],
): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [...nodeOptions, '--import', 'tsx', entry], {
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const url = /listening on (http:\/\/\S+)\/v1/.exec(output)?.[1];
      if (url !== undefined) {
        // The full stack logs a line per request: keep draining stdout, or the process blocks on a full pipe.
        child.stdout.off('data', onData);
        child.stdout.resume();
        resolve(url);
      }
    };
    child.stdout.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${entry} exited with ${code}: ${output}`)));
  });
  return { child, url };
}

/** Written by Node's HTTP server itself, for every server alike. */
const NODE_HEADERS = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);

/** The body and the headers (besides Node's own) of a 200 answer to PATH. */
export async function answerOf(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ body: string; headers: Record<string, string> }> {
  const answer = await fetch(`${url}${PATH}`, { headers });
  if (answer.status !== 200) throw new Error(`${url} answered ${answer.status}: ${await answer.text()}`);
  return {
    body: await answer.text(),
    headers: Object.fromEntries([...answer.headers].filter(([name]) => !NODE_HEADERS.has(name))),
  };
}

export async function load(url: string, headers: Record<string, string>, duration: number): Promise<number> {
  const result = await autocannon({ url: `${url}${PATH}`, headers, connections: CONNECTIONS, duration });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return result.requests.average;
}
