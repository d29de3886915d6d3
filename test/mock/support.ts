// What the mock tests compare answers with: the bundled contract's own examples and headers,
// read from generated/openapi.json, so that no expected value is written twice.
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';

interface Contract {
  components: {
    examples: Record<string, { value: unknown }>;
    headers: Record<string, { example?: unknown }>;
    schemas: { Error: { properties: { code: { enum: string[] } } } };
  };
}

export const contract = JSON.parse(readFileSync(new URL('../../generated/openapi.json', import.meta.url), 'utf8')) as Contract;

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

export interface ErrorBody {
  code: string;
  message: string;
  status: number;
}

export const RATE_LIMIT_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];

/**
 * The answer is the contract's Error body (exactly `code`, `message`, `status`) as JSON, with
 * the given status and code and the rate-limit headers every response carries. Returns the body.
 */
export async function expectContractError(response: Response, status: number, code: string): Promise<ErrorBody> {
  const body = (await response.json()) as Record<string, unknown>;
  expect({ status: response.status, contentType: response.headers.get('content-type') }).toEqual({
    status,
    contentType: 'application/json',
  });
  expect(Object.keys(body).sort()).toEqual(['code', 'message', 'status']);
  expect(body).toMatchObject({ code, status });
  expect(contract.components.schemas.Error.properties.code.enum).toContain(body.code);
  expect(body.message).toMatch(/\S/);
  for (const name of RATE_LIMIT_HEADERS) expect(response.headers.get(name), name).toMatch(/^\d+$/);
  return body as unknown as ErrorBody;
}
