// Requests pipelined on one connection ahead of bytes that are not HTTP: a request the server ran
// is answered before the refusal, so a client never loses the answer to something that was done.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defined } from '../../support/defined.ts';
import { type ListeningApp, startListeningApp } from '../../support/listening-app.ts';
import { converse, requestHead } from '../../support/raw-http.ts';

let app: ListeningApp;
beforeEach(async () => {
  app = await startListeningApp();
});
afterEach(async () => {
  await app.close();
});

function createPet(name: string): string {
  const body = JSON.stringify({ name, categoryId: 1 });
  return (
    requestHead('POST', '/v1/pets', [
      ['Host', 'localhost'],
      ['Authorization', `Bearer ${app.apiKey}`],
      ['Content-Type', 'application/json'],
      ['Content-Length', body.length],
    ]) + body
  );
}

describe('POST /v1/pets pipelined ahead of malformed bytes', () => {
  it.each([
    ['an invalid method', 'G@RBAGE / HTTP/1.1\r\nHost: localhost\r\n\r\n'],
    ['bytes that are no request line', '\u0001\u0002\u0003 nonsense\r\n\r\n'],
  ])('answers the create it ran, then refuses %s with the Error body', async (_case, garbage) => {
    const conversation = await converse(app.origin, [createPet('Answered') + garbage]);

    expect(conversation.responses.map((response) => response.status)).toEqual([201, 400]);
    const created = JSON.parse(defined(conversation.responses[0], 'the 201').body) as { id: number; name: string };
    expect(created.name).toBe('Answered');
    expect(JSON.parse(defined(conversation.responses[1], 'the 400').body)).toMatchObject({
      code: 'validation_failed',
      status: 400,
    });
    const { items } = await app.service.storage.collections('pets').list({ limit: 10, filters: {} });
    expect(items.map((pet) => (pet as { id: number }).id)).toEqual([created.id]);
  });

  it('answers two pipelined creates in order before the refusal', async () => {
    const conversation = await converse(app.origin, [`${createPet('First') + createPet('Second')}G@RBAGE\r\n\r\n`]);

    expect(conversation.responses.map((response) => response.status)).toEqual([201, 201, 400]);
    expect(conversation.responses.slice(0, 2).map((response) => JSON.parse(response.body).name)).toEqual([
      'First',
      'Second',
    ]);
  });
});
