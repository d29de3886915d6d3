import { describe, expect, it, onTestFinished } from 'vitest';
import { createAnimalStoreClient } from '../../client/index.ts';
import { BASE_URL, clientOfTestApp } from '../support/client.ts';
import { defined } from '../support/defined.ts';

async function testClient() {
  const t = await clientOfTestApp();
  onTestFinished(() => {
    t.app.close();
  });
  return t;
}

describe('createAnimalStoreClient against the real server', () => {
  it('adds an animal and reads it back, typed by the contract', async () => {
    const { client } = await testClient();

    const created = await client.POST('/pets', { body: { name: 'Rex', categoryId: 3, status: 'pending' } });
    const { id } = defined(created.data, 'the created pet');
    const read = await client.GET('/pets/{petId}', { params: { path: { petId: id } } });

    expect(created.response.status).toBe(201);
    expect(created.response.headers.get('Location')).toBe(`/v1/pets/${id}`);
    expect(read.data).toEqual({ id, name: 'Rex', categoryId: 3, status: 'pending' });
  });

  it('sends the API key as a bearer token on every request', async () => {
    const { app, client, sent } = await testClient();

    await client.POST('/pets', { body: { name: 'Rex', categoryId: 3, status: 'available' } });
    await client.GET('/pets', { params: { query: { status: 'available' } } });
    await client.GET('/pets/{petId}', { params: { path: { petId: 1 } } });

    expect(sent.map((request) => request.headers.get('Authorization'))).toEqual(Array(3).fill(`Bearer ${app.apiKey}`));
  });

  it('hands back the Error body of a refused request as `error`', async () => {
    const { client } = await testClient();

    const { data, error, response } = await client.GET('/pets/{petId}', { params: { path: { petId: 42 } } });

    expect(data).toBeUndefined();
    expect(response.status).toBe(404);
    expect(error).toEqual({ code: 'not_found', message: expect.stringContaining('42'), status: 404 });
  });

  it('gets 401 unauthorized with a key the service does not know', async () => {
    const { app } = await testClient();
    const stranger = createAnimalStoreClient({
      baseUrl: BASE_URL,
      apiKey: 'not-a-key',
      fetch: async (request) => await app.app.fetch(request),
    });

    const { error, response } = await stranger.GET('/pets');

    expect(response.status).toBe(401);
    expect(error?.code).toBe('unauthorized');
  });
});

describe('updatePet through the client', () => {
  it('sends the change as a merge patch and answers the animal as changed', async () => {
    const { client, sent } = await testClient();
    const created = await client.POST('/pets', { body: { name: 'Rex', categoryId: 3 } });
    const { id } = defined(created.data, 'the created pet');

    const changed = await client.PATCH('/pets/{petId}', {
      params: { path: { petId: id } },
      body: { status: 'pending' },
    });

    expect(sent.at(-1)?.headers.get('Content-Type')).toBe('application/merge-patch+json');
    expect(changed.response.status).toBe(200);
    expect(changed.data).toEqual({ id, name: 'Rex', categoryId: 3, status: 'pending' });
  });
});
