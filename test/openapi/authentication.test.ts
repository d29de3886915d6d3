import type { SecuritySchemeObject } from 'openapi-typescript';
import { describe, expect, it } from 'vitest';
import {
  componentSchema,
  contract,
  header,
  jsonContent,
  protectedOperations,
  resolve,
  response,
} from '../support/contract-document.ts';
import { accepts } from '../support/schema-validator.ts';

function isBearerScheme(name: string): boolean {
  const scheme = contract.components?.securitySchemes?.[name];
  if (scheme === undefined) return false;
  const resolved = resolve<SecuritySchemeObject>(scheme);
  return resolved.type === 'http' && resolved.scheme.toLowerCase() === 'bearer';
}

describe('authentication', () => {
  // The probes (`security: []`) are the only operations without a key: test/openapi/health.test.ts.
  // An empty requirement object, or one without bearer, would let a request through unauthenticated.
  it.each(protectedOperations)('$operationId requires HTTP bearer authentication', ({ operation }) => {
    const requirements = operation.security ?? contract.security ?? [];
    expect(requirements).not.toHaveLength(0);
    for (const requirement of requirements) {
      expect(Object.keys(requirement).some(isBearerScheme)).toBe(true);
    }
  });

  it('declares the API key as a bearer token in the Authorization header', () => {
    const bearerSchemes = Object.keys(contract.components?.securitySchemes ?? {}).filter(isBearerScheme);
    expect(bearerSchemes).not.toHaveLength(0);
  });

  it.each(protectedOperations)('$operationId answers 401 with an Error body', ({ operationId }) => {
    expect(resolve(jsonContent(response(operationId, '401')).schema ?? {})).toBe(componentSchema('Error'));
  });
});

describe('authentication challenge', () => {
  it.each(protectedOperations)('$operationId 401 carries WWW-Authenticate: Bearer', ({ operationId }) => {
    const challenge = header(response(operationId, '401'), 'WWW-Authenticate');
    expect(challenge?.required).toBe(true);
    expect(accepts(challenge?.schema ?? {}, 'Bearer')).toBe(true);
  });
});
