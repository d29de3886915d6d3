// `npm run diff` and `npm run release` on a throw-away copy of the repository: the lines name the
// file and line under openapi/ to edit, and a release takes only the version its changes call for.
import { readdirSync } from 'node:fs';
import { access, cp, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../../../contract/bundled.ts';
import { type JsonObject, resolveRef } from '../../../contract/document.ts';
import { buildDocs } from '../../../scripts/docs/build.ts';
import { regenerate } from '../../../scripts/pipeline/regenerate.ts';
import { runDiff } from '../../../scripts/release/diff-command.ts';
import { runRelease } from '../../../scripts/release/release-command.ts';
import { bumped, compareVersions, formatVersion, parseVersion } from '../../../scripts/release/version.ts';
import { defined } from '../../support/defined.ts';
import { escapeRegExp } from '../../support/text.ts';
import { addWidgetsCollection } from '../../support/widgets-collection.ts';
import { createWorkspace, positionOf, repoRoot, type Workspace } from '../../support/workspace.ts';

/** The released versions, oldest first; the latest one, and the versions after it. */
const RELEASED = readdirSync(path.join(repoRoot, 'releases'))
  .flatMap((name) => parseVersion(name) ?? [])
  .sort(compareVersions);
const LATEST_VERSION = defined(RELEASED.at(-1), 'a release in releases/');
const LATEST = formatVersion(LATEST_VERSION);
const NEXT_PATCH = formatVersion(bumped(LATEST_VERSION, 'patch'));
const NEXT_MINOR = formatVersion(bumped(LATEST_VERSION, 'minor'));
const NEXT_MAJOR = formatVersion(bumped(LATEST_VERSION, 'major'));

let workspace: Workspace;
const originals = new Map<string, string>();

beforeAll(async () => {
  workspace = await createWorkspace();
  await cp(path.join(repoRoot, 'releases'), workspace.path('releases'), { recursive: true });
  await copyReleasedChangelog();
  await cp(path.join(repoRoot, 'client', 'package.json'), workspace.locations.clientManifest);
  // The copy starts where `npm run release` leaves a repository, its contract the latest release,
  // whatever unreleased changes (and next version) the working contract carries.
  const root = await workspace.read('openapi/openapi.yaml');
  await workspace.write('openapi/openapi.yaml', root.replace(/^ {2}version: .*$/m, `  version: ${LATEST}`));
  await regenerate(workspace.locations);
  await cp(path.join(workspace.locations.outDir, 'openapi.json'), workspace.path(`releases/${LATEST}/openapi.json`));
}, 60_000);
afterAll(() => workspace?.dispose());

/** Edits a file of the copy; afterEach puts it back. */
async function edit(relative: string, change: (content: string) => string): Promise<string> {
  const content = await workspace.read(relative);
  if (!originals.has(relative)) originals.set(relative, content);
  const changed = change(content);
  await workspace.write(relative, changed);
  return changed;
}
afterEach(async () => {
  const contractEdited = [...originals.keys()].some((relative) => relative.startsWith('openapi/'));
  for (const [relative, content] of originals) await workspace.write(relative, content);
  originals.clear();
  await rm(workspace.path(`releases/${NEXT_MINOR}`), { recursive: true, force: true });
  await rm(workspace.path('dist'), { recursive: true, force: true });
  await copyReleasedChangelog();
  if (contractEdited) await regenerate(workspace.locations);
});

/** The repository's CHANGELOG.md as `npm run release` leaves it: whatever the Unreleased section drafts, empty. */
async function copyReleasedChangelog(): Promise<void> {
  const changelog = await readFile(path.join(repoRoot, 'CHANGELOG.md'), 'utf8');
  await workspace.write('CHANGELOG.md', changelog.replace(/(## \[Unreleased\]\n)[\s\S]*?(?=\n## \[)/, '$1'));
}

async function diff(base?: string): Promise<{ code: number; lines: string[] }> {
  const lines: string[] = [];
  const code = await runDiff(workspace.locations, {
    ...(base !== undefined && { base }),
    print: (line) => lines.push(line),
    printError: (line) => lines.push(line),
  });
  return { code, lines };
}

/**
 * What carries animals, as the contract declares it: the JSON of each answer that is a Pet or a
 * list of them, and of each webhook whose payload's `data` is a Pet, with how `npm run diff` names
 * its operation or webhook (`GET /pets`, `webhook petCreated (experimental)`).
 */
const PET_CARRIERS = ((): Array<{ name: string; media: JsonObject }> => {
  const { document, operations } = loadContract();
  const stability = (definition: JsonObject) => (definition['x-stability'] === 'experimental' ? ' (experimental)' : '');
  const jsonOf = (node: unknown) =>
    (resolveRef<JsonObject>(document, node ?? {}).content as Record<string, JsonObject> | undefined)?.[
      'application/json'
    ];
  const answers = operations.flatMap(({ method, path, definition, responses }) =>
    Object.values(responses).flatMap((response) => {
      const media = jsonOf(response.definition);
      const schema = media && resolveRef<JsonObject>(document, media.schema ?? {});
      return media && (isPet(media.schema) || isPet(schema?.items))
        ? [{ name: `${method} ${path}${stability(definition)}`, media }]
        : [];
    }),
  );
  const webhooks = Object.entries((document.webhooks ?? {}) as Record<string, JsonObject>).flatMap(([name, item]) =>
    Object.values(item).flatMap((operation) => {
      const definition = resolveRef<JsonObject>(document, operation);
      const media = jsonOf(definition.requestBody);
      const payload = media && resolveRef<JsonObject>(document, media.schema ?? {});
      const data = (payload?.properties as Record<string, unknown> | undefined)?.data;
      return media && isPet(data) ? [{ name: `webhook ${name}${stability(definition)}`, media }] : [];
    }),
  );
  return [...answers, ...webhooks];
})();

/** The example files of what carries animals: each shows `status`, so each loses it with the schema. */
const PET_EXAMPLES = [
  ...new Set(
    PET_CARRIERS.flatMap(({ media }) =>
      Object.values((media.examples ?? {}) as Record<string, { $ref?: string }>).flatMap(({ $ref }) =>
        $ref === undefined ? [] : [`openapi/components/examples/${$ref.slice($ref.lastIndexOf('/') + 1)}.yaml`],
      ),
    ),
  ),
];

/** What carries animals, as `npm run diff` names it, each once, in the contract's order. */
const PET_OPERATIONS = [...new Set(PET_CARRIERS.map(({ name }) => name))];

function isPet(node: unknown): boolean {
  return (node as { $ref?: string } | undefined)?.$ref === '#/components/schemas/Pet';
}

/** Pet.status removed, and from the examples of Pet too, so the contract still passes its lint. */
async function removePetStatus(): Promise<string> {
  for (const example of PET_EXAMPLES) await edit(example, (content) => content.replace(/^ +status: \w+\n/gm, ''));
  return edit('openapi/components/schemas/Pet.yaml', (content) =>
    content.replace('  - status\n', '').replace(/ {2}status:\n.*\n/, ''),
  );
}
const addNickname = (content: string) =>
  `${content.trimEnd()}\n  nickname:\n    type: string\n    description: What the family calls the animal.\n`;

describe('npm run diff', () => {
  it('passes with no change against the latest release', async () => {
    const { code, lines } = await diff();
    expect(code).toBe(0);
    expect(lines.at(-1)).toBe('0 breaking, 0 non-breaking, 0 documentation; no change; passes.');
  });

  it('fails on Pet.status removed, naming it, its pointer and the line of Pet.yaml', async () => {
    const pet = await removePetStatus();
    const { code, lines } = await diff();
    expect(code).toBe(1);
    const { line } = positionOf(pet, 'properties:');
    expect(lines).toContain(
      'breaking       removed Pet.status  #/components/schemas/Pet/properties/status  ' +
        `openapi/components/schemas/Pet.yaml:${line}  [${PET_OPERATIONS.join(', ')}]  ` +
        `NOT ALLOWED: breaks clients of ${LATEST_VERSION.major}.x: needs version ${NEXT_MAJOR} and the base path /v${LATEST_VERSION.major + 1} in servers`,
    );
    expect(lines.at(-1)).toMatch(/fails: 2 breaking changes the version does not allow\.$/);
  });

  it('passes an optional nickname as non-breaking, at its line of NewPet.yaml', async () => {
    const newPet = await edit('openapi/components/schemas/NewPet.yaml', addNickname);
    const { code, lines } = await diff();
    expect(code).toBe(0);
    const { line } = positionOf(newPet, 'nickname:');
    expect(lines).toContain(
      'non-breaking   added NewPet.nickname  #/components/schemas/NewPet/properties/nickname  ' +
        `openapi/components/schemas/NewPet.yaml:${line}  [POST /pets]`,
    );
  });

  it('passes Pet.status removed from experimental operations, and reports it', async () => {
    const markExperimental = (content: string) =>
      content.replace(/^( {2}operationId: \w+\n)(?! {2}x-stability:)/gm, '$1  x-stability: experimental\n');
    await edit('openapi/paths/pets.yaml', markExperimental);
    await edit('openapi/paths/pets_{petId}.yaml', markExperimental);
    await regenerate(workspace.locations);
    await cp(workspace.path('generated/openapi.json'), workspace.path('experimental-base.json'));
    await removePetStatus();
    const { code, lines } = await diff('experimental-base.json');
    expect(code).toBe(0);
    const experimental = PET_OPERATIONS.map((operation) =>
      operation.replace(/( \(experimental\))?$/, ' (experimental)'),
    );
    expect(lines.find((line) => line.includes('removed Pet.status'))).toMatch(
      new RegExp(
        `openapi/components/schemas/Pet\\.yaml:\\d+ {2}${escapeRegExp(`[${experimental.join(', ')}]`)} {2}allowed: experimental operation: may change in any way$`,
      ),
    );
  });

  it('fails through the npm script, as npm test runs it', async () => {
    await removePetStatus();
    const { code, stdout } = await workspace.npmRun('diff');
    expect(code).toBe(1);
    expect(stdout).toMatch(/removed Pet\.status .* openapi\/components\/schemas\/Pet\.yaml:\d+/);
  });
});

describe('npm run diff after a new collection and npm run generate', { timeout: 60_000 }, () => {
  it.for(['experimental', 'beta'] as const)(
    'calls for a minor version, naming each new operation %s',
    async (stability, { expect }) => {
      const copy = await createWorkspace();
      try {
        await cp(path.join(repoRoot, 'releases'), copy.path('releases'), { recursive: true });
        const widgets = await addWidgetsCollection(copy.root, { stability });
        const generated = await copy.generate();
        expect(generated.code, generated.stderr).toBe(0);
        const lines: string[] = [];
        const code = await runDiff(copy.locations, { print: (line) => lines.push(line) });
        expect(code).toBe(0);
        for (const { method, path } of widgets.operations) {
          expect(lines).toContainEqual(
            expect.stringMatching(
              new RegExp(`^non-breaking {3}added ${method} ${path} .* {2}\\[${method} ${path} \\(${stability}\\)\\]$`),
            ),
          );
        }
        expect(lines.at(-1)).toMatch(/; calls for a minor version; passes\.$/);
      } finally {
        await copy.dispose();
      }
    },
  );
});

describe('npm run release', () => {
  const release = async (version: string) => {
    const lines: string[] = [];
    const code = await runRelease(workspace.locations, version, {
      print: (line) => lines.push(line),
      printError: (line) => lines.push(line),
      now: new Date('2026-12-01T12:00:00Z'),
    });
    return { code, lines };
  };
  const setVersion = (version: string) =>
    edit('openapi/openapi.yaml', (content) => content.replace(/^ {2}version: .*$/m, `  version: ${version}`));

  it('refuses a patch version for a new optional field, then accepts the minor one and writes the release and its entry', async () => {
    await edit('openapi/components/schemas/NewPet.yaml', addNickname);
    await setVersion(NEXT_PATCH);
    await regenerate(workspace.locations);
    const refused = await release(NEXT_PATCH);
    expect(refused.code).toBe(1);
    expect(refused.lines.at(-1)).toBe(
      `release: ${NEXT_PATCH} is a patch step from ${LATEST}, but the changes call for a minor version: release ${NEXT_MINOR}.`,
    );

    await setVersion(NEXT_MINOR);
    await regenerate(workspace.locations);
    const accepted = await release(NEXT_MINOR);
    expect(accepted.code, accepted.lines.join('\n')).toBe(0);
    expect(await readFile(workspace.path(`releases/${NEXT_MINOR}/openapi.json`), 'utf8')).toBe(
      await workspace.read('generated/openapi.json'),
    );
    expect(JSON.parse(await readFile(workspace.locations.clientManifest, 'utf8')).version).toBe(NEXT_MINOR);
    const changelog = await workspace.read('CHANGELOG.md');
    expect(changelog).toContain(
      `## [Unreleased]\n\n## [${NEXT_MINOR}] - 2026-12-01\n\n### Added\n\n- \`NewPet.nickname\`: new optional field, in \`POST /pets\`.\n`,
    );
    expect(changelog.indexOf(`## [${NEXT_MINOR}]`)).toBeLessThan(changelog.indexOf(`## [${LATEST}]`));

    expect(await buildDocs(workspace.locations, () => {})).toEqual({ ok: true });
    const switcherOf = async (page: string) =>
      [...(await workspace.read(`dist/docs/${page}`)).matchAll(/<option value="([^"]+)"[^>]*>([^<]+)<\/option>/g)].map(
        ([, href, label]) => `${label} -> ${href}`,
      );
    // The draft first, then every release, the newest first.
    const versions = [NEXT_MINOR, ...RELEASED.map(formatVersion).reverse()];
    expect(await switcherOf('index.html')).toEqual([
      `${NEXT_MINOR} (draft) -> index.html`,
      ...versions.map((version) => `${version} -> ${version}/index.html`),
    ]);
    const oldest = formatVersion(defined(RELEASED[0], 'the first release'));
    expect(await switcherOf(`${oldest}/index.html`)).toEqual([
      `${NEXT_MINOR} (draft) -> ../index.html`,
      ...versions.map((version) => `${version} -> ../${version}/index.html`),
    ]);
    expect(await workspace.read(`dist/docs/${NEXT_MINOR}/openapi.json`)).toBe(
      await workspace.read(`releases/${NEXT_MINOR}/openapi.json`),
    );
    expect(await workspace.read('dist/docs/changelog.html')).toContain(
      '<li><code>NewPet.nickname</code>: new optional field, in <code>POST /pets</code>.</li>',
    );
  });

  it('refuses a version info.version does not state', async () => {
    const { code, lines } = await release(NEXT_MINOR);
    expect(code).toBe(1);
    expect(lines.at(-1)).toMatch(
      new RegExp(`^release: openapi/openapi.yaml says info.version ${LATEST}; set it to ${NEXT_MINOR} first`),
    );
  });

  it('refuses while generated/ is stale', async () => {
    await edit('openapi/components/schemas/NewPet.yaml', addNickname);
    await setVersion(NEXT_MINOR);
    const { code, lines } = await release(NEXT_MINOR);
    expect(code).toBe(1);
    expect(lines.at(-1)).toMatch(/^release: generated\/ does not match openapi\/: .*Run `npm run generate` first\.$/);
  });

  it('refuses while the client package is at another version', async () => {
    await edit('openapi/components/schemas/NewPet.yaml', addNickname);
    await setVersion(NEXT_MINOR);
    await regenerate(workspace.locations);
    await edit('client/package.json', (content) =>
      content.replace(`"version": "${NEXT_MINOR}"`, `"version": "${LATEST}"`),
    );
    const { code, lines } = await release(NEXT_MINOR);
    expect(code).toBe(1);
    expect(lines.at(-1)).toBe(
      `release: client/package.json says version ${LATEST}, not ${NEXT_MINOR}. Run \`npm run generate\` first.`,
    );
    await expect(access(workspace.path(`releases/${NEXT_MINOR}`))).rejects.toThrow();
  });

  it('takes the Unreleased section as edited for the entry', async () => {
    await edit('openapi/components/schemas/NewPet.yaml', addNickname);
    await setVersion(NEXT_MINOR);
    await edit('CHANGELOG.md', (content) =>
      content.replace('## [Unreleased]\n', '## [Unreleased]\n\n### Added\n\n- A nickname for every new animal.\n'),
    );
    await regenerate(workspace.locations);
    expect((await release(NEXT_MINOR)).code).toBe(0);
    expect(await workspace.read('CHANGELOG.md')).toContain(
      `## [Unreleased]\n\n## [${NEXT_MINOR}] - 2026-12-01\n\n### Added\n\n- A nickname for every new animal.\n`,
    );
  });
});
