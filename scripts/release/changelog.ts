// CHANGELOG.md, in the Keep a Changelog style: an `## [Unreleased]` section that `npm run
// changelog` writes from the changes since the latest release (changelog-entry.ts) and authors may
// edit, then one section per release, which `npm run release` makes of the Unreleased text (or,
// when that is empty, of the changes themselves).
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ContractLocations } from '../pipeline/locations.ts';

const UNRELEASED = '## [Unreleased]';

const HEADER = `# Changelog

All notable changes to the Animal Store API contract (\`openapi/\`). The format follows
[Keep a Changelog](https://keepachangelog.com/en/1.1.0/) and the versions follow
[Semantic Versioning](https://semver.org/spec/v2.0.0.html): a new major version (and base path)
for a change that breaks the clients of a stable operation, a minor version for additions, a
patch version for documentation only. \`npm run changelog\` writes the Unreleased section from
the changes since the latest release; edit it before \`npm run release\`, which turns it into the
release's entry. The released contracts are in \`releases/\`.
`;

export function changelogFile(locations: ContractLocations): string {
  return path.join(locations.root, 'CHANGELOG.md');
}

export async function readChangelog(locations: ContractLocations): Promise<string> {
  return readFile(changelogFile(locations), 'utf8').catch(() => `${HEADER}\n${UNRELEASED}\n`);
}

/** The text of the Unreleased section, trimmed; empty when it says nothing yet. */
export function unreleasedText(changelog: string): string {
  const start = changelog.indexOf(UNRELEASED);
  if (start < 0) return '';
  const rest = changelog.slice(start + UNRELEASED.length);
  const end = rest.search(/^## \[/m);
  return (end < 0 ? rest : rest.slice(0, end)).trim();
}

/** The changelog with its Unreleased section replaced by `body`. */
export function withUnreleased(changelog: string, body: string): string {
  const start = changelog.indexOf(UNRELEASED);
  const section = `${UNRELEASED}\n\n${body ? `${body}\n\n` : ''}`;
  if (start < 0) {
    const firstEntry = changelog.search(/^## \[/m);
    if (firstEntry < 0) return `${changelog.trimEnd()}\n\n${section}`.trimEnd().concat('\n');
    return `${changelog.slice(0, firstEntry)}${section}${changelog.slice(firstEntry)}`;
  }
  const rest = changelog.slice(start + UNRELEASED.length);
  const end = rest.search(/^## \[/m);
  return `${changelog.slice(0, start)}${section}${end < 0 ? '' : rest.slice(end)}`.trimEnd().concat('\n');
}

/**
 * The Unreleased section a person may have written, with the lines of `draft` (`npm run
 * changelog`'s, from the changes) that it does not say yet: each added at the end of its `###`
 * section, or in a new one. Nothing written is dropped or reordered; `added` counts the new lines.
 */
export function mergedUnreleased(written: string, draft: string): { text: string; added: number } {
  if (written.trim() === '') return { text: draft, added: draftItems(draft).length };
  const flat = (text: string) => text.replace(/\s+/g, ' ').trim();
  const said = flat(written);
  let text = written.trim();
  let added = 0;
  for (const { section, item } of draftItems(draft)) {
    if (said.includes(flat(item))) continue;
    added += 1;
    const heading = new RegExp(`^${section.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[ \t]*$`, 'm').exec(text);
    if (heading === null) {
      text = `${text}\n\n${section}\n\n${item}`;
      continue;
    }
    // The end of that section: the next heading of any level, or the end.
    const after = heading.index + heading[0].length;
    const next = /^#{1,3} /m.exec(text.slice(after));
    const end = next === null ? text.length : after + next.index;
    text = `${text.slice(0, end).trimEnd()}\n${item}\n${next === null ? '' : `\n${text.slice(end)}`}`.trimEnd();
  }
  return { text, added };
}

/** The items of a drafted section (`- ...` with its continuation lines), each under its `###` heading. */
function draftItems(draft: string): Array<{ section: string; item: string }> {
  const items: Array<{ section: string; item: string }> = [];
  let section = '### Changed';
  for (const line of draft.split('\n')) {
    if (line.startsWith('### ')) section = line.trim();
    else if (line.startsWith('- ')) items.push({ section, item: line });
    else if (line.trim() !== '' && items.length > 0) {
      const last = items[items.length - 1];
      if (last) last.item += `\n${line}`;
    }
  }
  return items;
}

/** The changelog with a new, empty Unreleased section and `body` as the entry of `version`. */
export function withRelease(changelog: string, version: string, date: string, body: string): string {
  const released = withUnreleased(changelog, '');
  const start = released.indexOf(UNRELEASED) + UNRELEASED.length;
  return `${released.slice(0, start)}\n\n## [${version}] - ${date}\n\n${body}\n${released.slice(start).replace(/^\n+/, '\n')}`
    .trimEnd()
    .concat('\n');
}

export async function writeChangelog(locations: ContractLocations, content: string): Promise<void> {
  await writeFile(changelogFile(locations), content, 'utf8');
}
