import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMock, startMock } from '../../mock/index.ts';
import { AUTHORIZED, exampleValue } from './support.ts';

describe('startMock with dynamic answers', { timeout: 60_000 }, () => {
  let first: RunningMock;
  let sameSeed: RunningMock;
  let otherSeed: RunningMock;
  beforeAll(async () => {
    [first, sameSeed, otherSeed] = await Promise.all([
      startMock({ dynamic: true, seed: 7 }),
      startMock({ dynamic: true, seed: 7 }),
      startMock({ dynamic: true, seed: 'another seed' }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([first, sameSeed, otherSeed].map((mock) => mock?.close()));
  });

  const listPets = async (mock: RunningMock) =>
    (await fetch(`${mock.url}/v1/pets`, { headers: AUTHORIZED })).json() as Promise<unknown>;

  it('generates data instead of answering with the examples', async () => {
    const pets = await listPets(first);

    expect(pets).not.toEqual(exampleValue('PetsFirstPage'));
  });

  it('gives the same answers for the same seed, in another run', async () => {
    expect(await listPets(sameSeed)).toEqual(await listPets(first));
    expect(await listPets(first)).toEqual(await listPets(first));
  });

  it('gives other answers for another seed', async () => {
    expect(await listPets(otherSeed)).not.toEqual(await listPets(first));
  });

  it.each([
    ['/v1/pets/42', 404, ['ErrorNotFound']],
    ['/v1/pets', 429, ['ErrorRateLimited', 'ErrorKeyBanned']],
  ])(
    "answers %s with Prefer: code=%i with one of the contract's examples of that status",
    async (path, status, names) => {
      const response = await fetch(first.url + path, { headers: { ...AUTHORIZED, Prefer: `code=${status}` } });

      expect(response.status).toBe(status);
      expect(names.map(exampleValue)).toContainEqual(await response.json());
    },
  );

  it('generates pets with only the fields a Pet declares', async () => {
    const pets = (await listPets(first)) as Record<string, unknown>[];

    for (const pet of pets) expect(Object.keys(pet).sort()).toEqual(['categoryId', 'id', 'name', 'status']);
  });
});
