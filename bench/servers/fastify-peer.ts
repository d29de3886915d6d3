// The peer: GET /v1/pets?limit=20 as a team would build it on Fastify 5 with the usual parts: pino
// access logs (one line per request, as ours), a request id echoed in X-Request-Id,
// @fastify/rate-limit with its X-RateLimit-* headers per key, Ajv validating the query (Fastify's
// own schema compiler), an LRU of API keys in front of SQLite, a keyset page from SQLite and an
// HMAC-signed cursor in a Link header. It reads the bench's database (DATABASE_PATH) and keys.
import { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import rateLimit from '@fastify/rate-limit';
import Database from 'better-sqlite3';
import Fastify from 'fastify';
import { LRUCache } from 'lru-cache';

interface PetRow {
  id: number;
  name: string;
  category_id: number;
  status: string;
}
interface KeyRow {
  plan: string;
  per_minute: number | null;
}

const db = new Database(process.env.DATABASE_PATH ?? '', { readonly: true });
const firstPage = db.prepare<[number], PetRow>('SELECT id, name, category_id, status FROM pets ORDER BY id LIMIT ?');
const pageAfter = db.prepare<[number, number], PetRow>(
  'SELECT id, name, category_id, status FROM pets WHERE id > ? ORDER BY id LIMIT ?',
);
const keyByHash = db.prepare<[string], KeyRow>(
  'SELECT plan, per_minute FROM api_keys WHERE key_hash = ? AND revoked_at IS NULL',
);
const keys = new LRUCache<string, KeyRow | false>({ max: 10_000, ttl: 60_000 });
const secret = randomBytes(32);

function keyOf(authorization: string | undefined): KeyRow | undefined {
  const token = /^Bearer (\S+)$/.exec(authorization ?? '')?.[1];
  if (token === undefined) return undefined;
  let found = keys.get(token);
  if (found === undefined) {
    found = keyByHash.get(createHash('sha256').update(token).digest('hex')) ?? false;
    keys.set(token, found);
  }
  return found || undefined;
}

const sign = (payload: string) => createHmac('sha256', secret).update(payload).digest('base64url');
function encodeCursor(afterId: number): string {
  const payload = Buffer.from(JSON.stringify({ a: afterId })).toString('base64url');
  return `${payload}.${sign(payload)}`;
}
function decodeCursor(cursor: string): number | undefined {
  const [payload = '', signature = ''] = cursor.split('.');
  const expected = Buffer.from(sign(payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
  const { a } = JSON.parse(Buffer.from(payload, 'base64url').toString()) as { a: unknown };
  return typeof a === 'number' ? a : undefined;
}

const app = Fastify({
  logger: { level: 'info' },
  genReqId: (request) => (request.headers['x-request-id'] as string | undefined) ?? randomUUID(),
});
app.addHook('onSend', async (request, reply) => {
  reply.header('X-Request-Id', request.id);
});
app.addHook('onRequest', async (request, reply) => {
  if (!keyOf(request.headers.authorization)) {
    await reply.code(401).send({ code: 'unauthorized', message: 'A valid API key is required.' });
  }
});
await app.register(rateLimit, {
  max: (request) => keyOf(request.headers.authorization)?.per_minute ?? 60,
  timeWindow: 60_000,
  keyGenerator: (request) => request.headers.authorization ?? request.ip,
});

app.get(
  '/v1/pets',
  {
    schema: {
      querystring: {
        type: 'object',
        additionalProperties: false,
        properties: {
          limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
          cursor: { type: 'string', minLength: 1, maxLength: 512 },
        },
      },
    },
  },
  async (request, reply) => {
    const { limit, cursor } = request.query as { limit: number; cursor?: string };
    const afterId = cursor === undefined ? undefined : decodeCursor(cursor);
    if (cursor !== undefined && afterId === undefined) {
      return reply.code(400).send({ code: 'validation_failed', message: 'The cursor is not one this service issued.' });
    }
    const rows = afterId === undefined ? firstPage.all(limit + 1) : pageAfter.all(afterId, limit + 1);
    const page = rows.slice(0, limit).map(({ id, name, category_id, status }) => ({
      id,
      name,
      categoryId: category_id,
      status,
    }));
    const last = page.at(-1);
    if (rows.length > limit && last) {
      reply.header('Link', `</v1/pets?limit=${limit}&cursor=${encodeCursor(last.id)}>; rel="next"`);
    }
    return reply.code(200).send(page);
  },
);

const address = await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`listening on ${address}/v1\n`);
