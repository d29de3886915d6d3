// The widgets collection that tests add to a copy of the contract (test/support/widgets-collection.ts)
// is a contract edit as openapi/README.md asks for one: it passes the lint, and the bundle and the
// types have what the helper says it added, marked as asked.
import { access } from 'node:fs/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { operationObjects } from '../../../contract/document.ts';
import { addWidgetsCollection, type Stability } from '../../support/widgets-collection.ts';
import { createWorkspace, type Workspace } from '../../support/workspace.ts';

const workspaces: Workspace[] = [];
afterAll(() => Promise.all(workspaces.map((workspace) => workspace.dispose())));

describe('the widgets collection added to a copy of the contract', { timeout: 60_000 }, () => {
  it.for<Stability>(['experimental', 'beta', 'stable'])(
    'passes npm run generate, marked %s, with the operations and components it reports',
    async (stability) => {
      const workspace = await createWorkspace();
      workspaces.push(workspace);
      const added = await addWidgetsCollection(workspace.root, { stability });
      for (const file of added.files) await expect(access(workspace.path(file))).resolves.toBeUndefined();

      const generated = await workspace.generate();
      expect(generated.code, generated.stderr).toBe(0);

      const bundle = JSON.parse(await workspace.read('generated/openapi.json'));
      const bundled = operationObjects(bundle).filter(({ path }) => path === added.path);
      expect(
        bundled.map(({ method, path, definition }) => ({
          method,
          path,
          operationId: definition.operationId,
          summary: definition.summary,
          stability: definition['x-stability'] ?? 'stable',
        })),
      ).toEqual(added.operations);
      for (const { definition } of bundled) expect(definition.tags).toEqual([added.tag]);
      expect(bundle.tags.map((tag: { name: string }) => tag.name)).toContain(added.tag);
      for (const [kind, names] of Object.entries(added.components))
        expect(Object.keys(bundle.components[kind])).toEqual(expect.arrayContaining(names));

      const types = await workspace.read('generated/openapi.ts');
      for (const { operationId } of added.operations) expect(types).toContain(`${operationId}: {`);
    },
  );
});
