// Validates values against schemas of the bundled contract, where they stand in it, with the
// contract module's one JSON Schema set-up (never filling in defaults: the values are the
// contract's own examples).
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { loadContract } from '../../contract/bundled.ts';
import { schemaCompiler } from '../../contract/schemas.ts';

const schemas = schemaCompiler(loadContract().document);

/** A validator for a schema object taken from the contract (not a copy of one). */
export function validatorFor(schema: object): ValidateFunction {
  return schemas.compile({ $ref: schemas.ref(schema) });
}

export function accepts(schema: object, value: unknown): boolean {
  return validatorFor(schema)(value);
}
