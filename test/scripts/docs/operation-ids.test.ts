import { describe, expect, it } from 'vitest';
import { withOperationIds } from '../../../scripts/docs/operation-ids.ts';

describe('withOperationIds', () => {
  it("ends each operation's description with its id, so Redoc shows it and its search finds it", () => {
    const document = {
      paths: {
        '/pets': {
          get: { operationId: 'listPets', description: 'Returns animals.\n' },
          post: { operationId: 'createPet' },
          parameters: [{ name: 'trace', in: 'header' }],
        },
      },
    };

    const decorated = withOperationIds(document);

    expect(decorated.paths['/pets'].get.description).toBe('Returns animals.\n\nOperation ID: `listPets`');
    expect(decorated.paths['/pets'].post).toEqual({
      operationId: 'createPet',
      description: 'Operation ID: `createPet`',
    });
    expect(decorated.paths['/pets'].parameters).toEqual(document.paths['/pets'].parameters);
  });

  it('leaves the bundle it was given unchanged (the download copies are that bundle)', () => {
    const document = { paths: { '/pets': { get: { operationId: 'listPets', description: 'Returns animals.' } } } };
    const before = structuredClone(document);

    withOperationIds(document);

    expect(document).toEqual(before);
  });
});
