import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type RunningStaticMock, startMock } from '../../mock/node/server.ts';
import { AUTHORIZED } from '../support/mock.ts';
import { createWorkspace, type Workspace } from '../support/workspace.ts';

const EXAMPLE = 'openapi/components/examples/PetsFirstPage.yaml';

/** Live reload on a throw-away copy of the repository: the real openapi/ is never edited. */
describe('startMock with watch', { timeout: 60_000 }, () => {
  let workspace: Workspace;
  let mock: RunningStaticMock;
  let logged: string[];
  beforeEach(async () => {
    workspace = await createWorkspace();
    logged = [];
    mock = await startMock({ root: workspace.root, watch: true, log: (line) => logged.push(line) });
    await mock.watching;
  });
  afterEach(async () => {
    await mock?.close();
    await workspace?.dispose();
  });

  const firstPetName = async () => {
    const pets = (await (await fetch(`${mock.url}/v1/pets`, { headers: AUTHORIZED })).json()) as { name: string }[];
    return pets[0]?.name;
  };
  const renameFirstPet = (name: string) =>
    workspace.editYaml(EXAMPLE, (example) => {
      example.value[0].name = name;
    });

  it('serves an edit under openapi/ at the same address, and says so', async () => {
    expect(await firstPetName()).toBe('Rex');

    await renameFirstPet('Edited Rex');

    await expect.poll(firstPetName, { timeout: 60_000, interval: 50 }).toBe('Edited Rex');
    await expect
      .poll(() => logged.join('\n'), { timeout: 60_000, interval: 50 })
      .toMatch(/serving the new contract, \d+ ms after the edit to openapi\/components\/examples\/PetsFirstPage\.yaml/);
  });

  it('prints the findings of an invalid edit and keeps serving the last good contract', async () => {
    await renameFirstPet('Last good Rex');
    await expect.poll(firstPetName, { timeout: 60_000, interval: 50 }).toBe('Last good Rex');

    await workspace.write('openapi/components/schemas/PetStatus.yaml', 'type: string\nenum: [available\n');

    await expect
      .poll(() => logged.join('\n'), { timeout: 60_000, interval: 50 })
      .toContain('still serving the last good contract');
    expect(logged.join('\n')).toContain('openapi/components/schemas/PetStatus.yaml');
    expect(await firstPetName()).toBe('Last good Rex');
  });

  it('serves the next valid edit after an invalid one', async () => {
    const goodStatus = await workspace.read('openapi/components/schemas/PetStatus.yaml');
    await workspace.write('openapi/components/schemas/PetStatus.yaml', 'type: string\nenum: [available\n');
    await expect
      .poll(() => logged.join('\n'), { timeout: 60_000, interval: 50 })
      .toContain('still serving the last good contract');

    await workspace.write('openapi/components/schemas/PetStatus.yaml', goodStatus);
    await renameFirstPet('Recovered Rex');

    await expect.poll(firstPetName, { timeout: 60_000, interval: 50 }).toBe('Recovered Rex');
  });

  it('answers before it watches, then serves an edit of openapi/ that generated/ lacked at start', async () => {
    await mock.close();
    await renameFirstPet('Unregenerated Rex');
    logged = [];

    mock = await startMock({ root: workspace.root, watch: true, log: (line) => logged.push(line) });
    const answeredAtStart = await firstPetName();
    await mock.watching;

    expect(answeredAtStart).toMatch(/^(Rex|Unregenerated Rex)$/);
    expect(await firstPetName()).toBe('Unregenerated Rex');
    expect(logged.join('\n')).toMatch(/serving the new contract, \d+ ms after start/);
  });
});
