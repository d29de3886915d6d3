import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemaArbitraries } from '../../../fuzz/schema-arbitraries.ts';
import { componentSchema, contract, keywords } from '../../support/contract-document.ts';
import { createTestApp, type TestApp } from '../../support/test-app.ts';

/**
 * Generated from the contract, so that a field added to `NewPet` or `Pet` fails here at once,
 * naming the field, until the server stores and returns it.
 */
const newPetProperties = Object.entries(keywords(componentSchema('NewPet')).properties as Record<string, unknown>);
const petProperties = Object.keys(keywords(componentSchema('Pet')).properties as Record<string, unknown>);

const WHERE_TO_ADD =
  'each collection table follows its item schema (server/storage/collection-tables.ts): check the field has a type it stores';

const { validValues } = schemaArbitraries(contract);

/** Every property NewPet declares, required or optional, with a value its schema allows. */
const completeNewPets = fc.record(
  Object.fromEntries(newPetProperties.map(([name, schema]) => [name, validValues(schema)])) as Record<
    string,
    fc.Arbitrary<unknown>
  >,
);

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('POST /v1/pets then GET /v1/pets/{petId}', () => {
  it('declares fields to round-trip: NewPet has properties, and each of them is a Pet property', () => {
    expect(newPetProperties.length).toBeGreaterThan(0);
    for (const [name] of newPetProperties) {
      expect(petProperties, `NewPet.${name} is not a property of Pet, so the service could not return it`).toContain(
        name,
      );
    }
  });

  it('stores every NewPet property it is sent and returns it, as sent, in the 201 and in every later read', async () => {
    await fc.assert(
      fc.asyncProperty(completeNewPets, async (sent) => {
        const created = await t.request('/v1/pets', { method: 'POST', json: sent });
        expect(created.status, JSON.stringify(await created.clone().json())).toBe(201);
        const fromPost = (await created.json()) as Record<string, unknown>;
        const read = `GET /v1/pets/${fromPost.id}`;
        const fromGet = (await (await t.request(read.slice('GET '.length))).json()) as Record<string, unknown>;
        const answers = { 'the 201 of POST /v1/pets': fromPost, [read]: fromGet };

        for (const [answer, pet] of Object.entries(answers)) {
          for (const field of petProperties) {
            expect(pet, `Pet.${field} is missing from ${answer}: ${WHERE_TO_ADD}`).toHaveProperty(field);
          }
          for (const [field, value] of Object.entries(sent)) {
            expect(
              pet[field],
              `NewPet.${field} was sent but ${answer} does not return it as sent: ${WHERE_TO_ADD}`,
            ).toEqual(value);
          }
        }
      }),
      { numRuns: 50 },
    );
  });
});
