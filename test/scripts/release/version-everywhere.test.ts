// Releases on a copy of the whole repository, as a person makes them: edit the contract (here: add
// the widgets collection), set info.version, npm run generate, npm run changelog, npm run release,
// npm run docs. The entry reads as a person writes one. After each release the client package, the
// description and the docs state the new version, and nothing but history (the releases, their
// entries in CHANGELOG.md, their docs pages and the switcher's list of them) states an older one.
//
// Which older version is searched for matters: the contract's prose may name a release it tells
// the history of ("no 1.0.0 operation has one"), so the search is for a version only this test
// ever set, the second of three releases. Any mention of it left after the third is a place a
// release did not carry its version to.
import { execFile } from 'node:child_process';
import { access, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDocs } from '../../../scripts/docs/build.ts';
import { type ContractLocations, contractLocations } from '../../../scripts/pipeline/locations.ts';
import { unreleasedText } from '../../../scripts/release/changelog.ts';
import { listReleases } from '../../../scripts/release/release-files.ts';
import { bumped, formatVersion, parseVersion } from '../../../scripts/release/version.ts';
import { copyRepository, REPOSITORY_ROOT, type RepositoryCopy } from '../../../support/repository-copy.ts';
import { release, setVersion, versionCalledFor } from '../../support/contract-release.ts';
import { addWidgetsCollection, type WidgetsCollection } from '../../support/widgets-collection.ts';

let copy: RepositoryCopy;
let locations: ContractLocations;
let widgets: WidgetsCollection;
/** The three versions released here, in order: what the widgets call for, then two patches. */
const released: string[] = [];
/** The Unreleased section `npm run changelog` wrote before the first release. */
let draft: string;
/** The Unreleased section as the repository has it, before `npm run changelog`. */
let curated: string;

const read = (relative: string) => readFile(path.join(copy.root, relative), 'utf8');

/** Every file of the repository as a clone with this work in it has them: tracked, or new and not ignored. */
async function repositoryFiles(): Promise<string[]> {
  const { stdout } = await promisify(execFile)(
    'git',
    ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--deduplicate'],
    { cwd: REPOSITORY_ROOT, maxBuffer: 16 * 1024 * 1024 },
  );
  const files = stdout.split('\0').filter(Boolean);
  // A tracked file deleted in the work tree is not part of it.
  const present = await Promise.all(
    files.map((file) =>
      access(path.join(REPOSITORY_ROOT, file)).then(
        () => true,
        () => false,
      ),
    ),
  );
  return files.filter((_, index) => present[index]);
}

async function edit(relative: string, change: (content: string) => string): Promise<void> {
  await writeFile(path.join(copy.root, relative), change(await read(relative)), 'utf8');
}

/** Sets info.version, regenerates and releases it, noting it among those released here. */
async function setAndRelease(version: string): Promise<void> {
  await setVersion(locations, version);
  await release(locations, version);
  released.push(version);
}

/** A documentation edit, which calls for a patch version. */
const reviseSummary = (round: number) =>
  edit('openapi/openapi.yaml', (content) => content.replace(/^( {2}summary: .*)$/m, `$1 Revision ${round}.`));

describe('a release on a copy of the repository', { timeout: 180_000 }, () => {
  beforeAll(async () => {
    copy = await copyRepository(await repositoryFiles(), 'animal-store-release-');
    locations = contractLocations(copy.root);
    widgets = await addWidgetsCollection(copy.root);
    const version = await versionCalledFor(locations);
    await setVersion(locations, version);
    curated = unreleasedText(await read('CHANGELOG.md'));
    const drafted = await promisify(execFile)('npm', ['run', '--silent', 'changelog'], { cwd: copy.root });
    expect(drafted.stdout).toContain('CHANGELOG.md: wrote the Unreleased section');
    draft = unreleasedText(await read('CHANGELOG.md'));
    await release(locations, version);
    released.push(version);
  }, 180_000);
  afterAll(() => copy?.remove());

  it('states the version the widgets call for in the client package and the description', async () => {
    const [version] = released;
    expect(JSON.parse(await read('client/package.json')).version).toBe(version);
    const bundle = JSON.parse(await read(`releases/${version}/openapi.json`));
    expect(bundle.info.version).toBe(version);
    expect(bundle.info.description).toContain(version);
  });

  it('records the entry npm run changelog drafted: each new operation once, in words, with its stability', async () => {
    const [version] = released;
    const changelog = await read('CHANGELOG.md');
    const start = changelog.indexOf(`## [${version}]`);
    const entry = changelog.slice(start, changelog.indexOf('\n## [', start + 1));
    expect(entry.split('\n').slice(1).join('\n').trim()).toBe(draft);
    for (const { method, path, summary, stability } of widgets.operations) {
      const lines = entry.split('\n').filter((line) => line.includes(`\`${method} ${path}\``));
      expect(lines).toEqual([
        `- \`${method} ${path}\`: ${summary[0]?.toLowerCase()}${summary.slice(1)} (${stability}).`,
      ]);
    }
    for (const name of Object.values(widgets.components).flat()) expect(entry).not.toMatch(new RegExp(`\\b${name}\\b`));
    // What a person wrote in the Unreleased section is kept as written; the drafted lines are whole.
    const curatedLines = new Set(curated.split('\n'));
    for (const line of curated.split('\n')) expect(entry.split('\n')).toContain(line);
    const drafted = entry.split('\n').filter((line) => !curatedLines.has(line));
    expect(drafted.join('\n')).not.toMatch(/\.\.\.|…/);
  });

  it('leaves nothing but history at an older version after two more releases', async () => {
    for (const round of [1, 2]) {
      await reviseSummary(round);
      const previous = parseVersion(released.at(-1) as string);
      await setAndRelease(formatVersion(bumped(previous as NonNullable<typeof previous>, 'patch')));
    }
    expect(await buildDocs(locations, () => {})).toEqual({ ok: true });
    const [, older, current] = released as [string, string, string];

    expect(await mentions(older)).toEqual([]);

    expect(JSON.parse(await read('client/package.json')).version).toBe(current);
    expect(JSON.parse(await read('generated/openapi.json')).info.description).toContain(current);
    const draft = await read('dist/docs/index.html');
    expect(withoutScripts(draft)).toContain(`(${current})`);
    expect(draft).toMatch(
      new RegExp(`<option value="index.html" selected>${current.replaceAll('.', '\\.')} \\(draft\\)`),
    );
  });
});

/**
 * Where the copy states `version`, as `file: line`, leaving out history: releases/, the released
 * entries of CHANGELOG.md and of its page, the releases' docs pages, and the switcher that lists
 * them. Of a docs page only what Redocly rendered is read, not Redoc's script (whose libraries carry
 * versions of their own); of package-lock.json only the project's own entry, not its dependencies.
 */
async function mentions(version: string): Promise<string[]> {
  const releaseNames = new Set((await listReleases(locations)).map((found) => found.name));
  const found: string[] = [];
  for (const file of await filesUnder(copy.root)) {
    const [top, second] = file.split('/');
    if (top === 'releases' || (top === 'dist' && second === 'docs' && releaseNames.has(file.split('/')[2] ?? '')))
      continue;
    let content = await read(file);
    if (file === 'CHANGELOG.md') content = before(content, /^## \[\d/m);
    if (file === 'package-lock.json') {
      const lock = JSON.parse(content);
      content = JSON.stringify([lock.version, lock.packages?.['']?.version]);
    }
    if (file.endsWith('.html')) {
      content = withoutScripts(content).replace(/<nav id="docs-versions"[\s\S]*?<\/nav>/, '');
      if (file === 'dist/docs/changelog.html') content = before(content, /<h2>\[\d/);
    }
    content.split('\n').forEach((line, index) => {
      if (line.includes(version)) found.push(`${file}:${index + 1}: ${line.trim().slice(0, 200)}`);
    });
  }
  return found;
}

/** `text` up to where `pattern` first matches: the part before the released entries. */
function before(text: string, pattern: RegExp): string {
  const at = text.search(pattern);
  return at < 0 ? text : text.slice(0, at);
}

function withoutScripts(html: string): string {
  return html.replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, '');
}

/** Every file under `dir`, relative to it; symbolic links (node_modules) are not followed. */
async function filesUnder(dir: string, prefix = ''): Promise<string[]> {
  const files: string[] = [];
  for (const entry of await readdir(path.join(dir, prefix), { withFileTypes: true })) {
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) files.push(...(await filesUnder(dir, relative)));
    else if (entry.isFile()) files.push(relative);
  }
  return files;
}
