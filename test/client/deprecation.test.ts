import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { createAnimalStoreClient, type DeprecationNotice } from '../../client/index.ts';
import { addPets, BASE_URL, clientOfTestApp } from '../support/client.ts';
import { collect } from '../support/collect.ts';

const GET_PET_NOTICE: DeprecationNotice = {
  operation: 'GET /pets/{petId}',
  deprecation: '@1795219200',
  sunset: 'Thu, 05 Dec 2030 00:00:00 GMT',
  link: '</v1/pets>; rel="successor-version"',
  successor: '/v1/pets',
};

async function clientWithPets(onDeprecation?: (notice: DeprecationNotice) => void) {
  const t = await clientOfTestApp({}, { onDeprecation });
  onTestFinished(() => {
    t.app.close();
  });
  await addPets(t, 2);
  return t;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('deprecation notices', () => {
  it('tells onDeprecation once about getPet, however often it is called and whatever it answers', async () => {
    const onDeprecation = vi.fn();
    const { client } = await clientWithPets(onDeprecation);

    for (const petId of [1, 2, 1, 999]) await client.GET('/pets/{petId}', { params: { path: { petId } } });

    expect(onDeprecation).toHaveBeenCalledTimes(1);
    expect(onDeprecation).toHaveBeenCalledWith(GET_PET_NOTICE);
  });

  it('tells each client once', async () => {
    const first = vi.fn();
    const second = vi.fn();
    const t = await clientWithPets(first);
    const otherClient = createAnimalStoreClient({
      baseUrl: BASE_URL,
      apiKey: t.app.apiKey,
      fetch: async (request) => await t.app.app.fetch(request),
      onDeprecation: second,
    });

    await t.client.GET('/pets/{petId}', { params: { path: { petId: 1 } } });
    await t.client.GET('/pets/{petId}', { params: { path: { petId: 1 } } });
    await otherClient.GET('/pets/{petId}', { params: { path: { petId: 1 } } });

    expect(first).toHaveBeenCalledTimes(1);
    expect(second).toHaveBeenCalledTimes(1);
  });

  it('never fires for operations that are not deprecated', async () => {
    const onDeprecation = vi.fn();
    const { client } = await clientWithPets(onDeprecation);

    await client.GET('/pets');
    await client.GET('/pets', { params: { query: { status: 'sold' } } });
    await client.POST('/pets', { body: { name: 'Tom', categoryId: 1, status: 'pending' } });
    await collect(client.listAllPets({ limit: 1 }));

    expect(onDeprecation).not.toHaveBeenCalled();
  });

  it('by default writes one console.warn line naming the operation and its sunset', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { client } = await clientWithPets(undefined);

    await client.GET('/pets/{petId}', { params: { path: { petId: 1 } } });
    await client.GET('/pets/{petId}', { params: { path: { petId: 2 } } });
    await client.GET('/pets');

    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn).toHaveBeenCalledWith(
      'Animal Store API: GET /pets/{petId} is deprecated; it will be removed on Thu, 05 Dec 2030 00:00:00 GMT; use /v1/pets instead.',
    );
  });
});
