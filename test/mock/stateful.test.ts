import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type RunningStatefulMock, STATEFUL_MOCK_KEY, startStatefulMock } from '../../mock/stateful.ts';
import { exampleValue, expectContractError } from './support.ts';

describe('startStatefulMock', () => {
  let mock: RunningStatefulMock;
  beforeEach(async () => {
    mock = await startStatefulMock();
  });
  afterEach(async () => {
    await mock?.close();
  });

  const request = (path: string, init: RequestInit = {}) =>
    fetch(mock.url + path, {
      ...init,
      headers: {
        Authorization: `Bearer ${STATEFUL_MOCK_KEY}`,
        'Content-Type': 'application/json',
        ...(init.headers as Record<string, string>),
      },
    });

  it('accepts the fixed development key it prints', async () => {
    expect(mock.apiKey).toBe(STATEFUL_MOCK_KEY);
    expect((await request('/v1/pets')).status).toBe(200);
  });

  it('refuses any other key with 401', async () => {
    await expectContractError(
      await request('/v1/pets', { headers: { Authorization: 'Bearer ask_not_the_development_key_00' } }),
      401,
      'unauthorized',
    );
  });

  it("starts with the pets of the contract's examples, under the ids the examples show", async () => {
    const listed = (await (await request('/v1/pets?limit=100')).json()) as { id: number }[];

    expect(listed).toEqual(expect.arrayContaining(exampleValue('PetsFirstPage') as object[]));
    expect(listed).toEqual(expect.arrayContaining(exampleValue('PetsAvailable') as object[]));
    expect(await (await request('/v1/pets/42')).json()).toEqual(exampleValue('PetFound'));
  });

  it('lists and fetches a pet once it is created', async () => {
    const created = await request('/v1/pets', {
      method: 'POST',
      body: JSON.stringify(exampleValue('NewPetWithStatus')),
    });
    const pet = (await created.json()) as { id: number };

    expect(created.status).toBe(201);
    expect(await (await request(created.headers.get('Location')!)).json()).toEqual(pet);
    expect(await (await request('/v1/pets?limit=100')).json()).toContainEqual(pet);
    expect(pet.id).toBeGreaterThan(Math.max(...mock.seeded.map((seeded) => seeded.id)));
  });

  it('counts every request against the free plan and answers 429 once the minute is used up', async () => {
    const first = await request('/v1/pets');
    const limit = Number(first.headers.get('X-RateLimit-Limit'));
    expect(first.headers.get('X-RateLimit-Remaining')).toBe(String(limit - 1));

    for (let sent = 1; sent < limit; sent += 1) await request('/v1/pets');
    const refused = await request('/v1/pets');

    expect(limit).toBe(60);
    expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThanOrEqual(1);
    await expectContractError(refused, 429, 'rate_limited');
  });
});
