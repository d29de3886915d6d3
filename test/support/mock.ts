// What the mock tests compare answers with: the bundled contract's own examples and headers,
// as the contract module reads them, so that no expected value is written twice.
import { expect } from 'vitest';
import { loadContract } from '../../contract/bundled.ts';
import { exampleItems } from '../../core/collections/example-items.ts';
import type { Item } from '../../core/collections/store.ts';
import type { ErrorBody } from '../../core/errors.ts';
import type { Pet } from '../../generated/openapi.ts';
import { defined } from './defined.ts';
import { accepts } from './schema-validator.ts';

interface Contract {
  components: {
    examples: Record<string, { value: unknown }>;
    headers: Record<string, { example?: unknown }>;
    schemas: { Error: object };
  };
}

export const contract = loadContract().document as unknown as Contract;

export const AUTHORIZED = { Authorization: 'Bearer ask_any_key_works_with_the_mock' };

export function exampleValue(name: string): unknown {
  const example = contract.components.examples[name];
  if (!example) throw new Error(`The contract has no example ${name}.`);
  return example.value;
}

export function headerExample(name: string): string {
  const header = contract.components.headers[name];
  if (header?.example === undefined) throw new Error(`The contract's header ${name} has no example.`);
  return String(header.example);
}

export const RATE_LIMIT_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];

/**
 * The answer is the contract's Error body (exactly `code`, `message`, `status`, and on a
 * `validation_failed` answer about parameters or fields the `details` whose first entry
 * `message` names) as JSON, with the given status and code and the rate-limit headers every
 * response carries. Returns the body.
 */
export async function expectContractError(response: Response, status: number, code: string): Promise<ErrorBody> {
  const body = (await response.json()) as Record<string, unknown>;
  expect({ status: response.status, contentType: response.headers.get('content-type') }).toEqual({
    status,
    contentType: 'application/json',
  });
  const { details, ...fields } = body;
  expect(Object.keys(fields).sort()).toEqual(['code', 'message', 'status']);
  expect(body).toMatchObject({ code, status });
  expect(accepts(contract.components.schemas.Error, body)).toBe(true);
  expect(body.message).toMatch(/\S/);
  if (details !== undefined) {
    expect(body.code).toBe('validation_failed');
    expect(defined((details as ErrorBody['details'])?.[0], 'a first entry in details').message).toBe(body.message);
  }
  for (const name of RATE_LIMIT_HEADERS) expect(response.headers.get(name), name).toMatch(/^\d+$/);
  return body as unknown as ErrorBody;
}

/** The pets the mocks hold by default: those of the contract's examples. */
export function examplePets(): Pet[] {
  return defined(exampleItems(loadContract()).get('pets'), "the contract's pets collection") as Pet[];
}

/** The pets a stateful mock was seeded with. */
export function seededPets(mock: { seeded: ReadonlyMap<string, readonly Item[]> }): Pet[] {
  return [...defined(mock.seeded.get('pets'), 'seeded pets')] as Pet[];
}
