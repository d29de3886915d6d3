// JSON Schema 2020-12 (the dialect of OpenAPI 3.1) over the bundled contract. The whole document
// is registered once, so a schema is compiled where it stands and its `#/components/...`
// references resolve as in the document.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { OpenApiDocument } from './document.ts';

const DOCUMENT_ID = 'https://contract.animal-store.invalid/openapi.json';

export interface SchemaCompilerOptions {
  /** Fill in the schemas' defaults as values are validated (for requests; never for the contract's own examples). */
  fillDefaults?: boolean;
}

export interface SchemaCompiler {
  /** A validator for a schema, which may hold `$ref`s to the document and nodes of it (`{ $ref: ref(node) }`). */
  compile(schema: object): ValidateFunction;
  /** A `$ref` value pointing at `node`, a node of the document (not a copy of one). */
  ref(node: object): string;
}

export function schemaCompiler(
  document: OpenApiDocument,
  { fillDefaults = false }: SchemaCompilerOptions = {},
): SchemaCompiler {
  const pointers = new WeakMap<object, string>();
  const extensionKeywords = new Set<string>();
  const formats = new Set<string>();
  (function index(node: unknown, pointer: string): void {
    if (typeof node !== 'object' || node === null) return;
    pointers.set(node, pointer);
    for (const [key, child] of Object.entries(node)) {
      if (key.startsWith('x-')) extensionKeywords.add(key);
      if (key === 'format' && typeof child === 'string') formats.add(child);
      index(child, `${pointer}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`);
    }
  })(document, '');

  // Strict mode turns a misspelt keyword in the contract (`maximun`) into a compile error. Declared
  // as known: the keywords OpenAPI 3.1 adds to JSON Schema, the contract's `x-` extensions, and its
  // top-level fields (`openapi`, `paths`, ...), since Ajv compiles the registered document as a
  // schema before resolving a pointer into it. `verbose` keeps each error's schema, whose
  // `x-pattern-message` explains a pattern in words.
  const ajv = new Ajv2020({ strict: true, allErrors: true, verbose: true, useDefaults: fillDefaults });
  // ajv-formats is CommonJS: under NodeNext its plugin is the module's `default`.
  addFormatsModule.default(ajv);
  ajv.addVocabulary(['discriminator', 'xml', 'externalDocs', 'example', ...extensionKeywords]);
  ajv.addVocabulary(Object.keys(document).filter((field) => !extensionKeywords.has(field) && !ajv.getKeyword(field)));
  // A format neither JSON Schema nor ajv-formats defines (another API's `phone`) is an annotation,
  // as OpenAPI 3.1 leaves formats open: any value of the type passes. Every format this contract
  // uses is a known one, so its strictness is unchanged.
  for (const format of formats) if (!ajv.formats[format]) ajv.addFormat(format, true);
  ajv.addSchema(document, DOCUMENT_ID);

  return {
    compile: (schema) => ajv.compile(schema),
    ref(node) {
      const pointer = pointers.get(node);
      if (pointer === undefined) throw new Error('The schema is not a node of the bundled contract');
      return `${DOCUMENT_ID}#${encodeURI(pointer)}`;
    },
  };
}
