// Validates values against schemas of the bundled contract with JSON Schema 2020-12 (the
// dialect of OpenAPI 3.1). The whole contract is registered once, so a schema is compiled
// where it stands and its `#/components/...` references resolve as in the document.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { contract } from './contract.ts';

const contractId = 'https://contract.animal-store.test/openapi.json';

const pointers = new WeakMap<object, string>();
const extensionKeywords = new Set<string>();
(function index(node: unknown, pointer: string): void {
  if (typeof node !== 'object' || node === null) return;
  pointers.set(node, pointer);
  for (const [key, child] of Object.entries(node)) {
    if (key.startsWith('x-')) extensionKeywords.add(key);
    index(child, `${pointer}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`);
  }
})(contract, '');

// Strict mode turns a misspelt keyword in the contract (`maximun`) into a compile error. Declared
// as known: the keywords OpenAPI 3.1 adds to JSON Schema, the contract's `x-` extensions, and its
// top-level fields (`openapi`, `paths`, ...), since Ajv compiles the registered document as a
// schema before resolving a pointer into it.
const ajv = new Ajv2020({ strict: true, allErrors: true });
addFormatsModule.default(ajv);
ajv.addVocabulary(['discriminator', 'xml', 'externalDocs', 'example', ...extensionKeywords]);
ajv.addVocabulary(Object.keys(contract).filter((field) => !ajv.getKeyword(field)));
ajv.addSchema(contract, contractId);

/** A validator for a schema object taken from the contract (not a copy of one). */
export function validatorFor(schema: object): ValidateFunction {
  const pointer = pointers.get(schema);
  if (pointer === undefined) throw new Error('The schema is not a node of the bundled contract');
  return ajv.compile({ $ref: `${contractId}#${encodeURI(pointer)}` });
}

export function accepts(schema: object, value: unknown): boolean {
  return validatorFor(schema)(value);
}
