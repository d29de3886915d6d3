import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { AppContext, AppEnv } from '../../core/http-types.ts';
import { answer, answerHeaders, answerJson, setHeader } from '../../core/middleware/answer-headers.ts';

/** An app whose one route sets `X-Set-Before` and answers as `respond` does. */
function appAnswering(respond: (c: AppContext) => Response, withAnswerHeaders = true): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  if (withAnswerHeaders) app.use(answerHeaders({ 'Cache-Control': 'no-store' }));
  app.use(async (c, next) => {
    setHeader(c, 'X-Set-Before', 'before');
    await next();
  });
  app.get('/', (c) => respond(c));
  return app;
}

describe('answerHeaders', () => {
  it('gives an answer made with answer the headers set before it, its own over them, and no other', async () => {
    const response = await appAnswering((c) => {
      setHeader(c, 'ETag', '"1"');
      return answerJson(c, { ok: true }, 200, { 'Cache-Control': 'max-age=60' });
    }).request('/');

    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
    expect(Object.fromEntries(response.headers)).toEqual({
      'cache-control': 'max-age=60',
      'content-type': 'application/json',
      etag: '"1"',
      'x-set-before': 'before',
    });
  });

  it('keeps one header of a name however its spelling differs', async () => {
    const response = await appAnswering((c) => {
      setHeader(c, 'x-set-before', 'again');
      return answer(c, null, 204, { 'CACHE-CONTROL': 'private' });
    }).request('/');

    expect(response.status).toBe(204);
    expect([...response.headers]).toEqual([
      ['cache-control', 'private'],
      ['x-set-before', 'again'],
    ]);
  });

  it('gives an answer made another way the headers it lacks, and leaves its own', async () => {
    const response = await appAnswering((c) => c.json({ ok: true }, 201, { 'Cache-Control': 'max-age=60' })).request(
      '/',
    );

    expect(response.status).toBe(201);
    expect(response.headers.get('Cache-Control')).toBe('max-age=60');
    expect(response.headers.get('X-Set-Before')).toBe('before');
  });

  it('sets a header on the answer once it is made', async () => {
    const app = new Hono<AppEnv>();
    app.use(answerHeaders());
    app.use(async (c, next) => {
      await next();
      setHeader(c, 'X-Set-After', 'after');
    });
    app.get('/', (c) => answer(c, 'made', 200));

    const response = await app.request('/');
    expect(await response.text()).toBe('made');
    expect(response.headers.get('X-Set-After')).toBe('after');
  });

  it('answers with the headers Hono keeps where no answerHeaders runs', async () => {
    const response = await appAnswering((c) => answerJson(c, [], 200), false).request('/');

    expect(response.headers.get('X-Set-Before')).toBe('before');
    expect(response.headers.get('Content-Type')).toBe('application/json');
  });
});
