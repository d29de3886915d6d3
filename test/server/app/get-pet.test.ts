import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pet } from '../../../generated/openapi.ts';
import { defined } from '../../support/defined.ts';
import {
  addPets,
  DEPRECATION_HEADERS,
  expectError,
  expectJsonContentType,
  type Send,
  SMALL_WINDOW_KEY,
  SUNSET,
  useUpMinuteWindow,
  withApp,
} from '../../support/http.ts';
import { createTestApp, type TestApp } from '../../support/test-app.ts';

let t: TestApp;
let pets: Pet[];

beforeAll(async () => {
  t = await createTestApp();
  pets = await addPets(t, ['available', 'sold']);
});
afterAll(() => t.close());

function expectDeprecationHeaders(response: Response): void {
  expect({
    Deprecation: response.headers.get('Deprecation'),
    Sunset: response.headers.get('Sunset'),
    Link: response.headers.get('Link'),
  }).toEqual(DEPRECATION_HEADERS);
}

describe('GET /pets/{petId}', () => {
  it('answers 200 with the pet', async () => {
    const response = await t.request(`/v1/pets/${defined(pets[1], 'a second pet').id}`);
    expect(response.status).toBe(200);
    expectJsonContentType(response);
    expect(await response.json()).toEqual(pets[1]);
  });

  it.each([[3], [1000], [9007199254740991]])(
    'answers 404 not_found naming the id %s that no pet has',
    async (petId) => {
      await expectError(await t.request(`/v1/pets/${petId}`), 404, 'not_found', String(petId));
    },
  );

  it.each([
    ['0'],
    ['-1'],
    ['01'],
    ['+1'],
    ['1.0'],
    ['abc'],
    ['9007199254740992'],
    ['1e3'],
    ['0x1'],
    ['%201'],
    ['1%20'],
    ['１'],
  ])(
    'rejects petId %s with 400 validation_failed naming petId, in the message and as its one detail',
    async (petId) => {
      const error = await expectError(await t.request(`/v1/pets/${petId}`), 400, 'validation_failed', 'petId');
      expect(error.details).toEqual([{ in: 'path', name: 'petId', message: error.message }]);
    },
  );

  describe('deprecation', () => {
    it.each<[number, Send]>([
      [
        200,
        async (app) => {
          await addPets(app, ['available']);
          return app.request('/v1/pets/1');
        },
      ],
      [400, (app) => app.request('/v1/pets/abc')],
      [401, (app) => app.app.request('/v1/pets/1')],
      [404, (app) => app.request('/v1/pets/1')],
      [
        410,
        (app) => {
          app.clock.set(SUNSET);
          return app.request('/v1/pets/1');
        },
      ],
    ])('sends Deprecation, Sunset and the successor Link on a %i response', async (status, send) => {
      await withApp(async (app) => {
        const response = await send(app);
        expect(response.status).toBe(status);
        expectDeprecationHeaders(response);
      });
    });

    it('sends Deprecation, Sunset and the successor Link on a 429 response', async () => {
      await withApp(
        async (app) => {
          await useUpMinuteWindow(app, SMALL_WINDOW_KEY.perMinute, '/v1/pets/1');
          const response = await app.request('/v1/pets/1');
          expect(response.status).toBe(429);
          expectDeprecationHeaders(response);
        },
        { key: SMALL_WINDOW_KEY },
      );
    });

    it.each([
      ['GET /v1/pets', (app: TestApp) => app.request('/v1/pets')],
      [
        'POST /v1/pets',
        (app: TestApp) => app.request('/v1/pets', { method: 'POST', json: { name: 'Rex', categoryId: 1 } }),
      ],
    ])('leaves %s, which is not deprecated, without a Deprecation header', async (_, send) => {
      const response = await send(t);
      expect(response.status).toBeLessThan(300);
      expect(response.headers.get('Deprecation')).toBeNull();
      expect(response.headers.get('Sunset')).toBeNull();
    });

    it('answers 200 until one millisecond before the sunset', async () => {
      await withApp(async (app) => {
        await addPets(app, ['available']);
        app.clock.set(Date.parse(SUNSET) - 1);
        expect((await app.request('/v1/pets/1')).status).toBe(200);
      });
    });

    it.each([SUNSET, '2030-12-05T00:00:00.001Z', '2031-06-01T12:00:00Z'])(
      'answers 410 gone naming the successor at %s',
      async (instant) => {
        await withApp(async (app) => {
          await addPets(app, ['available']);
          app.clock.set(instant);
          const error = await expectError(await app.request('/v1/pets/1'), 410, 'gone', '/v1/pets');
          expect(error.message).toMatch(/2030-12-05/);
        });
      },
    );
  });
});
