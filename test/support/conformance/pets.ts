import { expect } from 'vitest';
import type { NewPet, Pet } from '../../../generated/openapi.ts';
import { jsonContent, namedExamples, requestBody } from '../contract-document.ts';
import { defined } from '../defined.ts';
import { nextLink } from '../link-header.ts';
import { type ApiRequest, type ApiResponse, expectStatus, send } from './client.ts';
import type { Endpoint } from './target.ts';
import { target } from './target.ts';

/** The contract's own minimal NewPet example, so the suite's valid body is the documented one. */
export const EXAMPLE_NEW_PET = (() => {
  const found = namedExamples(
    jsonContent(defined(requestBody('createPet'), 'a request body of createPet in the contract')),
  ).find(([name]) => name === 'NewPetMinimal');
  if (!found) throw new Error('The contract has no NewPetMinimal example');
  return found[1].value as NewPet;
})();

/** The largest id the contract allows, which no test ever creates. */
export const LARGEST_ID = 9007199254740991;

export async function createPet(
  pet: NewPet = EXAMPLE_NEW_PET,
  endpoint: Endpoint = target,
): Promise<{ pet: Pet; response: ApiResponse }> {
  const request: ApiRequest = { method: 'POST', path: '/pets', json: pet };
  const response = await send('createPet', request, endpoint);
  expectStatus(request, response, 201);
  return { pet: response.body as Pet, response };
}

/**
 * An animal the target holds, for a write that must name one (an order's `petId`): the one created
 * where the target keeps what is created, else (the static mock) the first it lists.
 */
export async function petOfTheTarget(): Promise<Pet> {
  if (target.capabilities.stateful) return (await createPet()).pet;
  return defined((await listPets()).pets[0], 'an animal the target lists');
}

/** Adds `count` animals, all with `status`, and returns them in creation order. */
export async function createPets(count: number, status: NewPet['status'] = 'available'): Promise<Pet[]> {
  const pets: Pet[] = [];
  for (let index = 0; index < count; index++)
    pets.push((await createPet({ name: `Contract pet ${index + 1}`, categoryId: 1 + (index % 7), status })).pet);
  return pets;
}

export async function listPets(query: Record<string, string> = {}): Promise<{ pets: Pet[]; response: ApiResponse }> {
  const request: ApiRequest = { method: 'GET', path: '/pets', query };
  const response = await send('listPets', request);
  expectStatus(request, response, 200);
  return { pets: response.body as Pet[], response };
}

/** Splits a path-absolute link (`/v1/pets?...`) into the suite's path (under the API base) and query. */
export function requestFromLink(link: string): ApiRequest {
  const url = new URL(link, 'http://link.invalid');
  const basePath = new URL(target.baseUrl).pathname;
  expect(url.pathname.startsWith(`${basePath}/`), `${link} is under ${basePath}`).toBe(true);
  return { method: 'GET', path: url.pathname.slice(basePath.length), query: Object.fromEntries(url.searchParams) };
}

/** Follows `rel="next"` from `query`'s first page to the last, returning every page and link. */
export async function walkPages(query: Record<string, string>): Promise<{ pages: Pet[][]; links: string[] }> {
  const pages: Pet[][] = [];
  const links: string[] = [];
  let request: ApiRequest | undefined = { method: 'GET', path: '/pets', query };
  while (request) {
    const response = await send('listPets', request);
    expectStatus(request, response, 200);
    pages.push(response.body as Pet[]);
    const link = nextLink(response);
    if (link !== undefined) links.push(link);
    request = link === undefined ? undefined : requestFromLink(link);
    expect(pages.length, 'pages followed').toBeLessThan(1_000);
  }
  return { pages, links };
}
