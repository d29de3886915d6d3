// The changelog entry `npm run changelog` drafts and `npm run release` records, for edits of the
// released 1.0.0 contract (a release never changes, so its parts may be named here): one line per
// operation or field, in words, each operation with its stability, without the components and
// examples an edit adds along the way, and nothing cut short.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { OpenApiDocument } from '../../../contract/document.ts';
import { entryFromChanges } from '../../../scripts/release/changelog-entry.ts';
import { runGate } from '../../../scripts/release/gate.ts';
import { sortJudgements } from '../../../scripts/release/report.ts';
import { repoRoot } from '../../support/workspace.ts';

const released = JSON.parse(
  readFileSync(path.join(repoRoot, 'releases', '1.0.0', 'openapi.json'), 'utf8'),
) as OpenApiDocument;

// biome-ignore lint/suspicious/noExplicitAny: the edits reach into the bundle by the paths they know.
type Bundle = Record<string, any>;
const schemas = (document: Bundle) => document.components.schemas;
const PET_OPERATIONS = [
  ['/pets', 'get'],
  ['/pets', 'post'],
  ['/pets/{petId}', 'get'],
] as const;

function entryFor(change: (document: Bundle) => void, inBase?: (document: Bundle) => void): string {
  const base = structuredClone(released) as Bundle;
  inBase?.(base);
  const working = structuredClone(base);
  change(working);
  const { judgements } = runGate(base as OpenApiDocument, working as OpenApiDocument, {
    now: new Date('2026-12-01T00:00:00Z'),
  });
  return entryFromChanges(sortJudgements(judgements), {
    base: base as OpenApiDocument,
    working: working as OpenApiDocument,
  });
}

/** A collection with its own schema and example, as an edit adds one: only the operation is news. */
function addGadgets(stability?: 'experimental' | 'beta') {
  return (document: Bundle) => {
    const headers = document.paths['/pets'].get.responses['200'].headers;
    schemas(document).Gadget = { type: 'object', properties: { id: { type: 'integer' } } };
    document.components.examples.GadgetsEmpty = { summary: 'No gadget', value: [] };
    document.paths['/gadgets'] = {
      get: {
        operationId: 'listGadgets',
        ...(stability && { 'x-stability': stability }),
        summary: 'List gadgets',
        description: 'Returns the gadgets. Each has an id.',
        tags: ['pets'],
        responses: {
          200: {
            description: 'The gadgets.',
            headers,
            content: {
              'application/json': {
                schema: { type: 'array', items: { $ref: '#/components/schemas/Gadget' } },
                examples: { GadgetsEmpty: { $ref: '#/components/examples/GadgetsEmpty' } },
              },
            },
          },
        },
      },
    };
  };
}

const LONG_PROSE =
  'Returns the animals of the store in the order they were added, a page at a time, and says where the next page is.';

const ROWS: Array<{ edit: string; change: (document: Bundle) => void; inBase?: (d: Bundle) => void; entry: string }> = [
  {
    edit: 'a new experimental operation, with its schema and example',
    change: addGadgets('experimental'),
    entry: '### Added\n\n- `GET /gadgets`: list gadgets (experimental).',
  },
  {
    edit: 'a new beta operation',
    change: addGadgets('beta'),
    entry: '### Added\n\n- `GET /gadgets`: list gadgets (beta).',
  },
  {
    edit: 'a new stable operation without a summary: the first sentence of its description, whole',
    change: (d) => {
      addGadgets()(d);
      delete d.paths['/gadgets'].get.summary;
    },
    entry: '### Added\n\n- `GET /gadgets`: returns the gadgets.',
  },
  {
    edit: 'an optional field added',
    change: (d) => (schemas(d).NewPet.properties.nickname = { type: 'string' }),
    entry: '### Added\n\n- `NewPet.nickname`: new optional field, in `POST /pets`.',
  },
  {
    edit: 'a required field added: one line, not one for the field and one for `required`',
    change: (d) => {
      schemas(d).NewPet.properties.nickname = { type: 'string' };
      schemas(d).NewPet.required.push('nickname');
    },
    entry: '### Added\n\n- **Breaking**: `NewPet.nickname`: new required field, in `POST /pets`.',
  },
  {
    edit: 'a field of a new component added: the field, not the component',
    change: (d) => {
      schemas(d).Owner = { type: 'object', properties: { name: { type: 'string' } } };
      schemas(d).Pet.properties.owner = { $ref: '#/components/schemas/Owner' };
    },
    entry: '### Added\n\n- `Pet.owner`: new optional field, in `GET /pets`, `POST /pets` and `GET /pets/{petId}`.',
  },
  {
    edit: 'a field added to experimental operations',
    inBase: (d) => {
      for (const [route, method] of PET_OPERATIONS) d.paths[route][method]['x-stability'] = 'experimental';
    },
    change: (d) => (schemas(d).Pet.properties.nickname = { type: 'string' }),
    entry:
      '### Added\n\n- `Pet.nickname`: new optional field, in `GET /pets` (experimental), ' +
      '`POST /pets` (experimental) and `GET /pets/{petId}` (experimental).',
  },
  {
    edit: 'a response field removed: one line, not one for the field and one for `required`',
    change: (d) => {
      delete schemas(d).Pet.properties.status;
      schemas(d).Pet.required = ['id', 'name', 'categoryId'];
    },
    entry:
      '### Removed\n\n- **Breaking**: `Pet.status`: removed, in `GET /pets`, `POST /pets` and `GET /pets/{petId}`.',
  },
  {
    edit: 'an enum value added',
    change: (d) => schemas(d).PetStatus.enum.push('adopted'),
    entry:
      '### Added\n\n- **Breaking**: `PetStatus`: new value `adopted`, in `GET /pets`, `POST /pets` and `GET /pets/{petId}`.',
  },
  {
    edit: 'a limit lowered',
    change: (d) => (d.components.parameters.Limit.schema.maximum = 50),
    entry: '### Changed\n\n- **Breaking**: `Limit`: maximum changed from `100` to `50`, in `GET /pets`.',
  },
  {
    edit: 'a parameter and a response added to one operation: one line for the operation, under each heading',
    change: (d) => {
      d.paths['/pets'].get.parameters.push({ name: 'q', in: 'query', schema: { type: 'string' } });
      delete d.paths['/pets'].get.responses['400'];
    },
    entry:
      '### Added\n\n- `GET /pets`: new optional query parameter `q`.\n\n' +
      '### Removed\n\n- **Breaking**: `GET /pets`: response 400 removed.',
  },
  {
    edit: 'a header parameter given to an operation that had none: named, not "undefined"',
    change: (d) => {
      d.paths['/pets'].post.parameters = [{ name: 'X-Trace', in: 'header', schema: { type: 'string' } }];
    },
    entry: '### Added\n\n- `POST /pets`: new optional header parameter `X-Trace`.',
  },
  {
    edit: 'an operation deprecated, with its removal date and successor',
    change: (d) =>
      Object.assign(d.paths['/pets'].post, {
        deprecated: true,
        'x-sunset': '2031-01-01',
        'x-successor': 'listPets',
      }),
    entry: '### Deprecated\n\n- `POST /pets`: deprecated, to be removed on 2031-01-01; use `listPets`.',
  },
  {
    edit: 'a deprecated operation removed',
    change: (d) => delete d.paths['/pets/{petId}'],
    entry: '### Removed\n\n- **Breaking**: `GET /pets/{petId}`: removed (deprecated, sunset 2030-12-05).',
  },
  {
    edit: 'an operation made beta',
    change: (d) => (d.paths['/pets'].get['x-stability'] = 'beta'),
    entry: '### Changed\n\n- `GET /pets`: now beta.',
  },
  {
    edit: 'a summary and a long description reworded: the new summary whole, the description not quoted',
    change: (d) => {
      d.paths['/pets'].get.summary = 'List the animals';
      d.paths['/pets'].get.description = LONG_PROSE;
    },
    entry: '### Changed\n\n- `GET /pets`: description revised; summary now “List the animals”.',
  },
  {
    edit: "a tag and the API's description reworded, and a tag added before the others",
    change: (d) => {
      d.tags[0].description = LONG_PROSE;
      d.info.description = LONG_PROSE;
      d.tags.unshift({ name: 'gadgets', description: 'The gadgets.' });
    },
    entry: "### Changed\n\n- The API's description revised.\n- The `pets` tag's description revised.",
  },
  {
    edit: 'an example changed alongside a field: the field only',
    change: (d) => {
      d.components.examples.PetFound.value.name = 'Max';
      schemas(d).NewPet.properties.nickname = { type: 'string' };
    },
    entry: '### Added\n\n- `NewPet.nickname`: new optional field, in `POST /pets`.',
  },
  {
    edit: 'an example changed alone',
    change: (d) => (d.components.examples.PetFound.value.name = 'Max'),
    entry: '### Changed\n\n- Examples revised.',
  },
];

describe('the changelog entry of edits of the 1.0.0 contract', () => {
  it.each(ROWS)('$edit', ({ change, inBase, entry }) => {
    expect(entryFor(change, inBase)).toBe(entry);
  });

  it('never cuts a value or a sentence short', () => {
    const entry = entryFor((d) => {
      d.info.description = LONG_PROSE;
      d.tags[0].description = LONG_PROSE;
      d.components.schemas.PetName.pattern = `^${'[a-z]'.repeat(20)}$`;
    });
    expect(entry).not.toMatch(/\.\.\.|…/);
    expect(entry).not.toContain(LONG_PROSE.slice(0, 20));
  });
});
