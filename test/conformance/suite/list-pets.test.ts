import { describe, expect } from 'vitest';
import type { PetStatus } from '../../../generated/openapi.ts';
import { responseCase, statefulIt } from '../../support/conformance/cases.ts';
import { errorCode } from '../../support/conformance/client.ts';
import { createPets, listPets, walkPages } from '../../support/conformance/pets.ts';
import { defined } from '../../support/defined.ts';
import { nextLink } from '../../support/link-header.ts';

const STATUSES: PetStatus[] = ['available', 'pending', 'sold'];

describe('listPets: GET /pets', () => {
  responseCase('listPets', 200, 'with a JSON array of at most 20 animals when limit is omitted', async (call) => {
    const response = await call({ path: '/pets' });
    expect(Array.isArray(response.body)).toBe(true);
    expect((response.body as unknown[]).length).toBeLessThanOrEqual(20);
  });

  // How many come back is the service's own (the stateful cases below); any target accepts the bounds.
  for (const limit of ['1', '100']) {
    responseCase('listPets', 200, `accepting limit=${limit}, a bound of its range`, async (call) => {
      await call({ path: '/pets', query: { limit } });
    });
  }

  statefulIt('returns exactly 20 animals when limit is omitted and more exist', async () => {
    await createPets(21);
    const { pets } = await listPets();
    expect(pets).toHaveLength(20);
  });

  statefulIt.each([1, 7, 100])('returns exactly limit=%i animals when at least that many exist', async (limit) => {
    await createPets(limit);
    const { pets } = await listPets({ limit: String(limit) });
    expect(pets).toHaveLength(limit);
  });

  statefulIt.each(STATUSES)('returns only animals with status=%s when filtered by it', async (status) => {
    await createPets(2, status);
    const { pets } = await listPets({ status, limit: '100' });
    expect(pets.length).toBeGreaterThanOrEqual(2);
    for (const pet of pets) expect(pet.status).toBe(status);
  });

  statefulIt(
    'pages through every animal once, in ascending id order, following rel="next" to a last page without one',
    async () => {
      const created = await createPets(5, 'pending');
      const { pages, links } = await walkPages({ status: 'pending', limit: '2' });
      const ids = pages.flat().map((pet) => pet.id);
      expect(ids).toEqual([...new Set(ids)].sort((a, b) => a - b));
      expect(ids).toEqual(expect.arrayContaining(created.map((pet) => pet.id)));
      expect(defined(pages.at(-1), 'a last page').length).toBeGreaterThan(0);
      expect(links).toHaveLength(pages.length - 1);
      for (const page of pages.slice(0, -1)) expect(page).toHaveLength(2);
    },
  );

  statefulIt(
    'repeats limit (also the default) and status in the rel="next" link, as a path-absolute reference',
    async () => {
      await createPets(21, 'sold');
      const { response } = await listPets({ status: 'sold' });
      const link = nextLink(response);
      expect(link).toMatch(/^\/v1\/pets\?/);
      const params = new URL(defined(link, 'a rel="next" link'), 'http://link.invalid').searchParams;
      expect({ limit: params.get('limit'), status: params.get('status'), cursor: params.get('cursor') }).toEqual({
        limit: '20',
        status: 'sold',
        cursor: expect.stringMatching(/\S/),
      });
    },
  );

  const invalidQueries: Array<[reason: string, query: Record<string, string>]> = [
    ['limit is 0, below the range', { limit: '0' }],
    ['limit is 101, above the range', { limit: '101' }],
    ['limit is negative', { limit: '-1' }],
    ['limit is a fraction', { limit: '1.5' }],
    ['limit is not a number', { limit: 'ten' }],
    ['limit is written with a leading zero', { limit: '010' }],
    ['status is outside the enumeration', { status: 'lost' }],
  ];
  for (const [reason, query] of invalidQueries) {
    responseCase('listPets', 400, `validation_failed when ${reason}`, async (call) => {
      const response = await call({ path: '/pets', query, example: 'ErrorInvalidLimit' });
      expect(errorCode(response)).toBe('validation_failed');
    });
  }

  responseCase('listPets', 400, 'invalid_cursor for a cursor the service did not issue', async (call) => {
    const response = await call({
      path: '/pets',
      query: { cursor: 'eyJhZnRlciI6MjB9.forged' },
      example: 'ErrorInvalidCursor',
    });
    expect(errorCode(response)).toBe('invalid_cursor');
  });

  responseCase(
    'listPets',
    400,
    'invalid_cursor for a cursor used with another status than it was issued for',
    async (call) => {
      await createPets(3, 'available');
      const { response: first } = await listPets({ status: 'available', limit: '1' });
      const link = defined(nextLink(first), 'a rel="next" link on the first page');
      const cursor = defined(
        new URL(link, 'http://link.invalid').searchParams.get('cursor'),
        'a cursor in the next link',
      );
      const response = await call({
        path: '/pets',
        query: { status: 'sold', limit: '1', cursor },
        example: 'ErrorInvalidCursor',
      });
      expect(errorCode(response)).toBe('invalid_cursor');
    },
    { state: true },
  );
});
